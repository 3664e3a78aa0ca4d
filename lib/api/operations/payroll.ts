import { listEnvelope } from "@/lib/pagination";
import {
  CreateEndorsementBody,
  CreateMarginQueryBody,
  CreateReservationBody,
  EndorsementIdParams,
  EndorsementResponse,
  ListEndorsementsQuery,
  ListMarginQueriesQuery,
  ListReservationsQuery,
  MarginQueryIdParams,
  MarginQueryResponse,
  ReservationIdParams,
  ReservationResponse,
  SANDBOX_TRIGGER_TABLE,
} from "@/lib/payroll/schemas";
import { defineOperation } from "../operation";
import { ENDORSEMENT_EXAMPLE, MARGIN_QUERY_EXAMPLE, RESERVATION_EXAMPLE } from "./examples";

const tags = ["Payroll"];
const UPSTREAM =
  " When the authority cannot answer: 502 `authority_bad_response`, 503 `authority_unavailable` (Retry-After) or 504 " +
  "`authority_timeout`, all with `retryable`; nothing is stored then, and a retry with the same X-Request-Id runs again.";
const upstreamErrors = [502, 503, 504];

export const createMarginQueryOperation = defineOperation({
  operationId: "createMarginQuery",
  method: "POST",
  path: "/v1/payroll/margin-queries",
  summary: "Query a customer's payroll margin at the authority",
  description:
    "Asks the payroll-loan authority (INSS benefit, or private employer + registration) for the margin and stores its answer: margin " +
    "base, margin per kind (INSS: loans 35%, card 5%, benefit card 5%), used, reserved and available, source type and status, blocks, " +
    "paying institution and existing loans (the last three added in 1.4.0), and `valid_until`. A refusal by the authority (no such " +
    "benefit or employment link for the CPF, or its holder has not authorized this institution) is 422 `margin_query_refused` with " +
    "the authority's `refusal` (`code`, `message`); nothing is stored. " +
    SANDBOX_TRIGGER_TABLE +
    UPSTREAM,
  tags,
  auth: "bearer",
  permission: "payroll:write",
  alsoRequires: "customers:read", // the benefit number or registration, the margin base
  body: CreateMarginQueryBody,
  responses: { 201: { description: "The authority's answer, stored.", schema: MarginQueryResponse, example: MARGIN_QUERY_EXAMPLE } },
  errors: [404, 422, ...upstreamErrors],
  errorNotes: {
    422: "`margin_query_refused`: the authority refused the query, its `refusal` (`code`, `message`) beside — nothing is stored; or `idempotency_key_reused`.",
  },
});

export const listMarginQueriesOperation = defineOperation({
  operationId: "listMarginQueries",
  method: "GET",
  path: "/v1/payroll/margin-queries",
  summary: "List margin queries, newest first",
  tags,
  auth: "bearer",
  permission: "payroll:read",
  alsoRequires: "customers:read", // the benefit number or registration, the margin base
  query: ListMarginQueriesQuery,
  responses: { 200: { description: "A page of margin queries.", schema: listEnvelope(MarginQueryResponse) } },
});

export const getMarginQueryOperation = defineOperation({
  operationId: "getMarginQuery",
  method: "GET",
  path: "/v1/payroll/margin-queries/{id}",
  summary: "Get a margin query",
  tags,
  auth: "bearer",
  permission: "payroll:read",
  alsoRequires: "customers:read", // the benefit number or registration, the margin base
  params: MarginQueryIdParams,
  responses: { 200: { description: "The margin query, with this platform's reservations from it counted as reserved.", schema: MarginQueryResponse } },
  errors: [404],
});

export const createReservationOperation = defineOperation({
  operationId: "createMarginReservation",
  method: "POST",
  path: "/v1/payroll/margin-reservations",
  summary: "Reserve an installment against a valid margin query",
  description:
    "Checks the margin query (valid: else 422 `margin_query_expired`; source active and not blocked: else 422 " +
    "`payroll_source_unavailable`; available loan margin covering the installment: else 422 `insufficient_margin`), then asks the " +
    "authority. 201 with status `reserved` (and `expires_at`) or `refused` (with the authority's `refusal`). Proposal submission " +
    "reserves by itself, under its own reservation: a reservation made here is never attached to a proposal and counts against " +
    "the customer's margin until it is canceled or expires — cancel it before submitting a proposal that needs that margin. " +
    "This endpoint is for margin held outside this platform's proposals (a payroll card, an operation of your own). " +
    "Sandbox: a benefit number or registration ending in 0009 is refused (`margin_unavailable`), 0010 times out (504)." +
    UPSTREAM,
  tags,
  auth: "bearer",
  permission: "payroll:write",
  body: CreateReservationBody,
  responses: { 201: { description: "The reservation: reserved or refused.", schema: ReservationResponse, example: { ...RESERVATION_EXAMPLE, proposal_id: null } } },
  errors: [404, 422, ...upstreamErrors],
  errorNotes: {
    422:
      "Checked before the authority is asked (no reservation is made): `margin_query_expired` (past its `valid_until`: query the margin again), " +
      "`payroll_source_unavailable` (the benefit or employment link is not active, or blocked for loans), `insufficient_margin` (the available " +
      "margin of that `kind` does not cover the installment); or `idempotency_key_reused`.",
  },
});

export const listReservationsOperation = defineOperation({
  operationId: "listMarginReservations",
  method: "GET",
  path: "/v1/payroll/margin-reservations",
  summary: "List margin reservations, newest first",
  tags,
  auth: "bearer",
  permission: "payroll:read",
  query: ListReservationsQuery,
  responses: { 200: { description: "A page of reservations.", schema: listEnvelope(ReservationResponse) } },
});

export const getReservationOperation = defineOperation({
  operationId: "getMarginReservation",
  method: "GET",
  path: "/v1/payroll/margin-reservations/{id}",
  summary: "Get a margin reservation",
  tags,
  auth: "bearer",
  permission: "payroll:read",
  params: ReservationIdParams,
  responses: { 200: { description: "The reservation.", schema: ReservationResponse } },
  errors: [404],
});

export const cancelReservationOperation = defineOperation({
  operationId: "cancelMarginReservation",
  method: "POST",
  path: "/v1/payroll/margin-reservations/{id}/cancel",
  summary: "Release a reservation (reserved → released)",
  description: "Releases the margin at the authority. A reservation already past `expires_at` becomes `expired` instead. 409 `invalid_transition` from any other status; 409 `conflict` (with `proposal_id`) for a proposal's reservation, which goes with its proposal: cancel the proposal." + UPSTREAM,
  tags,
  auth: "bearer",
  permission: "payroll:write",
  params: ReservationIdParams,
  responses: { 200: { description: "The reservation, released (or expired).", schema: ReservationResponse, example: { ...RESERVATION_EXAMPLE, status: "released" } } },
  errors: [404, 409, ...upstreamErrors],
});

export const createEndorsementOperation = defineOperation({
  operationId: "createEndorsement",
  method: "POST",
  path: "/v1/payroll/endorsements",
  summary: "Endorse (averbação) a signed payroll proposal against its reservation",
  description:
    "The authority registers the contract (under the CCB number shown as `contract_number`) against the proposal's reserved margin. " +
    "`endorsed`: the reservation is consumed and POST /v1/contracts issues the contract under that number (before it: 409 " +
    "`endorsement_required`). `refused`: the proposal is rejected with the authority's reason and its reservation released (or " +
    "expired). 409 when the proposal is not signed, was already endorsed, or holds no reserved margin; in production, 422 " +
    "`disbursement_date_passed` when the proposal's disbursement date is before today (its contract could no longer be issued: " +
    "cancel the proposal and propose again). Against the production " +
    "authority the endorsement is written ahead: when its answer is lost (a 502, 503 or 504 here, a dropped connection), it stays `submitted` " +
    "(GET /v1/payroll/endorsements?proposal_id=…) and retrying this request asks the authority again under the same idempotency key " +
    "and records the answer; without a retry the worker does so a few minutes later (`endorsement.status_changed`). " +
    "Sandbox: a reservation made for a benefit number or registration ending in 0011 times out here (504), 0012 finds the authority unavailable (503)." +
    UPSTREAM,
  tags,
  auth: "bearer",
  permission: "payroll:write",
  body: CreateEndorsementBody,
  responses: { 201: { description: "The endorsement: endorsed or refused.", schema: EndorsementResponse, example: ENDORSEMENT_EXAMPLE } },
  errors: [404, 409, 422, ...upstreamErrors],
  errorNotes: {
    422:
      "`disbursement_date_passed` (production: the proposal's disbursement date is before today — nothing is sent to the authority; cancel the proposal " +
      "and propose again), or `idempotency_key_reused`.",
  },
});

export const listEndorsementsOperation = defineOperation({
  operationId: "listEndorsements",
  method: "GET",
  path: "/v1/payroll/endorsements",
  summary: "List endorsements, newest first",
  tags,
  auth: "bearer",
  permission: "payroll:read",
  query: ListEndorsementsQuery,
  responses: { 200: { description: "A page of endorsements.", schema: listEnvelope(EndorsementResponse) } },
});

export const getEndorsementOperation = defineOperation({
  operationId: "getEndorsement",
  method: "GET",
  path: "/v1/payroll/endorsements/{id}",
  summary: "Get an endorsement",
  tags,
  auth: "bearer",
  permission: "payroll:read",
  params: EndorsementIdParams,
  responses: { 200: { description: "The endorsement.", schema: EndorsementResponse } },
  errors: [404],
});

export const payrollOperations = [
  createMarginQueryOperation,
  listMarginQueriesOperation,
  getMarginQueryOperation,
  createReservationOperation,
  listReservationsOperation,
  getReservationOperation,
  cancelReservationOperation,
  createEndorsementOperation,
  listEndorsementsOperation,
  getEndorsementOperation,
];
