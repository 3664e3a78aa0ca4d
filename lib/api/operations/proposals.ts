import { z } from "zod";
import { listEnvelope } from "@/lib/pagination";
import { CreateProposalBody, ListProposalsQuery, ProposalIdParams, ProposalResponse, ReasonBody, RejectBody, SubmitBody } from "@/lib/proposals/schemas";
import type { FinePermission } from "@/lib/auth/permissions";
import { defineOperation } from "../operation";

const tags = ["Proposals"];
const one = { description: "The proposal.", schema: ProposalResponse };

export const createProposalOperation = defineOperation({
  operationId: "createProposal",
  deprecationHeaders: true, // when inline `terms` use `tax_rate`
  method: "POST",
  path: "/v1/proposals",
  summary: "Create a proposal (draft) from a customer and a simulation or inline terms",
  description:
    "Freezes the simulation's terms and schedule. A stored `simulation_id` must still meet the product's rules (400 with the rule's " +
    "code, each broken rule named on `simulation_id`), and be at most 30 days old (400). In production no proposal — stored simulation or " +
    "inline terms — is dated before today (422 `disbursement_date_passed`), and `expires_at` is at most the end of its disbursement day " +
    "(Brasília): past it, it can no longer become a contract — the expiry job closes it, signed or not. The state machine is in docs/state-machines.md.",
  tags,
  auth: "bearer",
  permission: "proposals:write",
  body: CreateProposalBody,
  responses: { 201: { description: "Created in status `draft`.", schema: ProposalResponse } },
  errors: [404, 422],
  errorNotes: {
    422: "`disbursement_date_passed` (production: the terms are dated before today); payroll products: `insufficient_margin`, `margin_query_expired`, `payroll_source_unavailable`; or `idempotency_key_reused`.",
  },
});

export const listProposalsOperation = defineOperation({
  operationId: "listProposals",
  method: "GET",
  path: "/v1/proposals",
  summary: "List proposals (newest first)",
  tags,
  auth: "bearer",
  permission: "proposals:read",
  query: ListProposalsQuery,
  responses: { 200: { description: "A page of proposals.", schema: listEnvelope(ProposalResponse) } },
});

export const getProposalOperation = defineOperation({
  operationId: "getProposal",
  method: "GET",
  path: "/v1/proposals/{id}",
  summary: "Get a proposal",
  tags,
  auth: "bearer",
  permission: "proposals:read",
  params: ProposalIdParams,
  responses: { 200: one },
  errors: [404],
});

function action<B extends z.ZodType | undefined>(name: string, summary: string, permission: FinePermission, body?: B) {
  return defineOperation({
    operationId: `${name}Proposal`,
    method: "POST",
    path: `/v1/proposals/{id}/${name}`,
    summary,
    description:
      "409 `invalid_transition` (with `current_status` and `allowed_actions`) when the status does not allow it; nothing changes then. " +
      "Submit, approve and sign are also refused once `expires_at` has passed (`current_status: expired`): the proposal is closed as expired then, as the expiry job would. " +
        "A payroll proposal is approved and signed only while its margin reservation holds (reserved, before its `expires_at`): otherwise 409 `conflict` — cancel it and start from a new margin query.",
    tags,
    auth: "bearer",
    permission,
    params: ProposalIdParams,
    body,
    responses: { 200: one },
    // Submitting a payroll proposal reserves its margin at the payroll authority; rejecting or canceling one (and a
    // lapsed one closed by approve or sign) releases it there.
    errors: [404, 409, 422, 502, 503, 504],
    errorNotes: {
      422:
        "Submit of a payroll proposal, which reserves its margin at the payroll authority: `insufficient_margin` (the installment does not fit), " +
        "`margin_query_expired` (query the margin again and submit with it: `margin_query_id`), `payroll_source_unavailable` (the benefit or employment link takes no new deductions); " +
        "submit, approve and sign in production: `disbursement_date_passed` (the proposal's disbursement date is before today — cancel it and propose again); " +
        "or `idempotency_key_reused`.",
    },
  });
}

export const submitProposalOperation = action("submit", "Submit a draft for review (draft → pending_review); a payroll draft may bring a newer margin query", "proposals:write", SubmitBody);
export const approveProposalOperation = action("approve", "Approve (pending_review → approved); staff: proposals:review", "proposals:review");
export const rejectProposalOperation = action("reject", "Reject with a reason (pending_review → rejected); staff: proposals:review", "proposals:review", RejectBody);
export const signProposalOperation = action("sign", "Record the borrower's signature (approved → signed)", "proposals:write");
export const cancelProposalOperation = action("cancel", "Cancel (from draft, pending_review, approved or signed; a signed payroll proposal's averbação is ended)", "proposals:write", ReasonBody);

export const proposalOperations = [
  createProposalOperation,
  listProposalsOperation,
  getProposalOperation,
  submitProposalOperation,
  approveProposalOperation,
  rejectProposalOperation,
  signProposalOperation,
  cancelProposalOperation,
];
