import {
  AssignmentContractResponse,
  AssignmentIdParams,
  AssignmentResponse,
  BuybackAssignmentBody,
  CancelAssignmentBody,
  CreateAssignmentBody,
  DeclineAssignmentBody,
  ListAssignmentContractsQuery,
  ListAssignmentsQuery,
  MAX_ASSIGNMENT_CONTRACTS,
} from "@/lib/assignments/schemas";
import { listEnvelope } from "@/lib/pagination";
import { defineOperation } from "../operation";
import { ASSIGNMENT_EXAMPLE } from "./examples";

const tags = ["Assignments"];
const one = { description: "The assignment.", schema: AssignmentResponse, example: ASSIGNMENT_EXAMPLE };

export const createAssignmentOperation = defineOperation({
  operationId: "createAssignment",
  method: "POST",
  path: "/v1/assignments",
  summary: "Offer contracts to an assignee (cessão) at a discount rate or a price",
  description:
    `1–${MAX_ASSIGNMENT_CONTRACTS} active contracts, priced on \`settlement_date\`: with \`discount_rate\`, each contract's price is the present value ` +
    "of its open installments at that monthly rate (t = whole months + days/30 to each due date; face value when already due), rounded " +
    "per installment; with `price`, the total is shared in proportion to the contracts' open face value (largest remainder). `pending` " +
    "until settled or canceled. A contract can be in one pending or settled assignment only, not with a pending settlement, not while " +
    "it holds the borrower's credit (`credit_balance` > 0: the payoff would net it from the assignee's money — refund or apply it " +
    "first), not while the borrower may still withdraw it (7 days after disbursement, to the next business day: 409 `conflict` with `withdrawal_ends_on` — an " +
    "assigned contract cannot be canceled), and only while active (409 `conflict` / `contract_not_active`; races are settled by the " +
    "contracts' row locks, taken in id order). `discount_rate` from " +
    "0 to 1. Assignee CNPJ validated (400 `invalid_document`). A pending assignment not settled by `settlement_date` and the two " +
    "business days a payment takes to clear is canceled by the collection job (reason `lapsed: not settled by its date`). The offer does " +
    "not hold its contracts from their borrowers (CDC art. 52 §2): a contract that gets a settlement (`POST /v1/settlements` or a batch " +
    "item, full or partial) or is paid off by its installments while the assignment is pending leaves it in that transaction — it is no " +
    "longer listed in `contracts`, and `face_value`, `price` and `contract_count` drop by its own (at a total `price`, by its share of " +
    "it: what the assignee pays drops by that share, the other contracts keep theirs); event `assignment.contract_removed` " +
    "(`removed_contract_id`, `reason`: `settlement` or `paid_off`). The last contract leaving cancels the assignment (reason `every " +
    "contract left the offer`, event `assignment.status_changed`). It does not come back when that settlement is canceled.",
  tags,
  auth: "bearer",
  permission: "assignments:write",
  body: CreateAssignmentBody,
  responses: { 201: { description: "The assignment, pending.", schema: AssignmentResponse, example: ASSIGNMENT_EXAMPLE } },
  errors: [409],
});

export const listAssignmentsOperation = defineOperation({
  operationId: "listAssignments",
  method: "GET",
  path: "/v1/assignments",
  summary: "List assignments, newest first (filter: status)",
  description:
    `Each assignment with its \`contracts\`, as \`GET /v1/assignments/{id}\` shows it. A page embeds at most ${MAX_ASSIGNMENT_CONTRACTS} ` +
    "contracts in all (an assignment may hold that many): it ends before `limit` assignments, with `has_more: true` and a " +
    "`next_cursor` after the last one shown, when the next would take it past that. A page always holds at least one assignment.",
  tags,
  auth: "bearer",
  permission: "assignments:read",
  query: ListAssignmentsQuery,
  responses: { 200: { description: "A page of assignments.", schema: listEnvelope(AssignmentResponse) } },
});

export const getAssignmentOperation = defineOperation({
  operationId: "getAssignment",
  method: "GET",
  path: "/v1/assignments/{id}",
  summary: "Get an assignment with its contracts and prices",
  tags,
  auth: "bearer",
  permission: "assignments:read",
  params: AssignmentIdParams,
  responses: { 200: one },
  errors: [404],
});

export const listAssignmentContractsOperation = defineOperation({
  operationId: "listAssignmentContracts",
  method: "GET",
  path: "/v1/assignments/{id}/contracts",
  summary: "An assignment's contracts with their prices, a page at a time (by contract id)",
  description:
    "The contracts `GET /v1/assignments/{id}` embeds in `contracts` — each with its open face value and its price (the present value " +
    "at `discount_rate`, or its share of a total `price`) — in the same order (contract id, ascending), paged with `limit` and " +
    "`cursor` like every list: read an assignment of up to " +
    `${MAX_ASSIGNMENT_CONTRACTS} contracts in pages instead of in one answer. A contract that left the offer while it was pending ` +
    "(its borrower settled or paid it off: event `assignment.contract_removed`) is not listed, as it is not embedded. The cursor " +
    "belongs to this assignment's list (another list's, or another assignment's: 400 `invalid_cursor`). `GET /v1/assignments/{id}` " +
    "still embeds every contract.",
  tags,
  auth: "bearer",
  permission: "assignments:read",
  params: AssignmentIdParams,
  query: ListAssignmentContractsQuery,
  responses: {
    200: {
      description: "A page of the assignment's contracts.",
      schema: listEnvelope(AssignmentContractResponse),
      example: {
        object: "list",
        data: [...ASSIGNMENT_EXAMPLE.contracts, { contract_id: "ctr_01JDQ83B4C5D6E7F8G9H0J1K2M", face_value: 95373, price: 94621, bought_back_at: null, buyback_price: null, buyback_reason: null }],
        has_more: true,
        next_cursor: "WyIyMDI2LTEyLTAxVDEzOjEwOjAwLjAwMFoiLCJjdHJfMDFKRFE4M0I0QzVENkU3RjhHOUgwSjFLMk0iXQ.c2lnbmF0dXJlc2lnbmF0dQ",
      },
    },
  },
  errors: [404],
});

export const settleAssignmentOperation = defineOperation({
  operationId: "settleAssignment",
  method: "POST",
  path: "/v1/assignments/{id}/settle",
  summary: "Settle an assignment: its contracts become `assigned` and their later receipts the assignee's",
  description:
    "pending → settled, with the contracts still in it (those that left it — settled or paid off by their borrowers — are not sold, " +
    "and the totals are already the rest's). Every one must still be active (409 `contract_not_active` otherwise: cancel and make a new one) and " +
    "have the open face value it was priced on (409 `conflict` with `face_value` and `priced_face_value` when it was paid since); each " +
    "becomes `assigned` (`assignment_id` on the contract, event `contract.assigned`) and is still collected — charges, repasse — with " +
    "every later payment marked with the `assignment_id`; the borrower may still pay it off early (`POST /v1/settlements`, the payment " +
    "the assignee's). 409 `conflict` for a contract that came to hold the borrower's credit since; 409 `invalid_transition` past " +
    "`settlement_date` and its two clearing business days (the prices are present values on that date: make a new one). Event " +
    "`assignment.status_changed`.",
  tags,
  auth: "bearer",
  permission: "assignments:write",
  params: AssignmentIdParams,
  responses: { 200: one },
  errors: [404, 409],
});

export const cancelAssignmentOperation = defineOperation({
  operationId: "cancelAssignment",
  method: "POST",
  path: "/v1/assignments/{id}/cancel",
  summary: "Cancel a pending assignment (its contracts are free again)",
  description:
    "pending → canceled; a settled, canceled, declined or bought-back one (also one canceled when every contract left it: reason `every contract left the offer`): " +
    "409 `invalid_transition`. Event `assignment.status_changed`.",
  tags,
  auth: "bearer",
  permission: "assignments:write",
  params: AssignmentIdParams,
  body: CancelAssignmentBody,
  responses: { 200: one },
  errors: [404, 409],
});

const DECLINED_EXAMPLE = {
  ...ASSIGNMENT_EXAMPLE,
  status: "declined",
  decline_reason: "The assignee's credit committee did not approve the portfolio",
  declined_at: "2026-12-01T16:00:00.000Z",
  updated_at: "2026-12-01T16:00:00.000Z",
};

export const declineAssignmentOperation = defineOperation({
  operationId: "declineAssignment",
  method: "POST",
  path: "/v1/assignments/{id}/decline",
  summary: "Record that the assignee declined a pending assignment (its contracts are free again)",
  description:
    "pending → declined (final), with the assignee's `reason` (required, 3–500 characters, trimmed: `decline_reason`, `declined_at`). Its " +
    "contracts are free again, as a cancel frees them: they may be offered anew, written off or withdrawn. A settled, canceled, declined " +
    "or bought-back one: 409 `invalid_transition` (with `current_status` and `allowed_actions`). Event `assignment.status_changed` " +
    "(`previous_status` `pending`); audit `assignment.declined`.",
  tags,
  auth: "bearer",
  permission: "assignments:write",
  params: AssignmentIdParams,
  body: DeclineAssignmentBody,
  responses: { 200: { description: "The assignment, declined.", schema: AssignmentResponse, example: DECLINED_EXAMPLE } },
  errors: [404, 409],
});

const BOUGHT_BACK_EXAMPLE = {
  ...ASSIGNMENT_EXAMPLE,
  status: "bought_back",
  bought_back: { count: 1, amount: 187712 },
  contracts: ASSIGNMENT_EXAMPLE.contracts.map((c) => ({ ...c, bought_back_at: "2026-12-20T14:00:00.000Z", buyback_price: 187712, buyback_reason: "Fraud found in the borrower's documents (coobrigação)" })),
  settled_at: "2026-12-01T15:00:00.000Z",
  bought_back_at: "2026-12-20T14:00:00.000Z",
  updated_at: "2026-12-20T14:00:00.000Z",
};

export const buybackAssignmentOperation = defineOperation({
  operationId: "buybackAssignment",
  method: "POST",
  path: "/v1/assignments/{id}/buyback",
  summary: "Buy contracts of a settled assignment back from the assignee (recompra)",
  description:
    `The originator buys back 1–${MAX_ASSIGNMENT_CONTRACTS} contracts of a settled assignment (a defect or fraud found, the coobrigação), ` +
    "with a `reason`. Each goes from `assigned` back to `active` with its `assignment_id` cleared: every later payment (charges, repasse, " +
    "a payoff) is the originator's again. Its entry in `contracts` stays, with `bought_back_at`, `buyback_price` and `buyback_reason`; " +
    "`bought_back` totals them (`count`, `amount`); `contract_count`, `face_value` and `price` stay those of the sale. The price: `price` " +
    "(integer centavos, the total) shared in proportion to the contracts' open face value (largest remainder); by default each contract at " +
    "the present value of its open installments today, at the assignment's `discount_rate` when it was priced by one, else at the " +
    "contract's own monthly rate. All or nothing: a contract of another environment is 400; one not in this assignment, already bought " +
    "back, or no longer assigned to it (its borrower paid it off or settled it: closed) is 409 `contract_not_assigned` (`contract_id`, " +
    "`current_status`), and nothing changes; a repeated contract is 400. A pending, canceled, declined or bought-back assignment: 409 " +
    "`invalid_transition`. Once every contract of it is bought back the assignment is `bought_back` (event `assignment.status_changed`, " +
    "`previous_status` `settled`); until then it stays `settled`. Events `contract.bought_back` per contract (with `previous_assignment_id`, " +
    "`buyback_price`, `reason`); audit `contract.bought_back` per contract and `assignment.contracts_bought_back`. The contracts' row locks " +
    "are taken in id order, then the assignment's, as on every other path.",
  tags,
  auth: "bearer",
  permission: "assignments:write",
  params: AssignmentIdParams,
  body: BuybackAssignmentBody,
  responses: { 200: { description: "The assignment, `settled` while contracts of it are still assigned, else `bought_back`.", schema: AssignmentResponse, example: BOUGHT_BACK_EXAMPLE } },
  errors: [404, 409],
});

export const assignmentOperations = [
  createAssignmentOperation,
  listAssignmentsOperation,
  getAssignmentOperation,
  listAssignmentContractsOperation,
  settleAssignmentOperation,
  cancelAssignmentOperation,
  declineAssignmentOperation,
  buybackAssignmentOperation,
];
