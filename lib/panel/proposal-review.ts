import type { Prisma } from "@prisma/client";
import { z } from "zod";
import type { Actor } from "@/lib/audit/audit-log";
import { startOfDayInBrazil, todayInBrazil } from "@/lib/clock";
import { dateSchema } from "@/lib/date-schema";
import { COLLECTIBLE } from "@/lib/contracts/transitions";
import { getCustomer } from "@/lib/customers/get-customer";
import { db } from "@/lib/db/client";
import { keysetWhere, paginate, type Keyset } from "@/lib/db/paginate";
import { notFound } from "@/lib/errors";
import { recordCustomerAccess } from "./access-log";
import { customerIdsMatching, customerSummaries } from "./customer-search";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { applyProposalAction } from "@/lib/proposals/apply-action";
import { getProposal } from "@/lib/proposals/queries";
import { toProposalResponse } from "@/lib/proposals/serialize";
import { PROPOSAL_STATUSES, type ProposalStatus } from "@/lib/proposals/transitions";
import { getRiskAssessment } from "@/lib/risk/queries";
import { where, type Scope } from "@/lib/scope";
import { credentialNames } from "./actor-names";
import { getSimulation } from "@/lib/simulations/queries";
import { toEndorsementResponse } from "@/lib/payroll/endorsements";
import { toReservationResponse } from "@/lib/payroll/reservations";
import { addDays, latestLateDueDate } from "@/lib/finance";

// The support staff's proposal queue and review (panel, issue 12), on the same services, transition table and
// audit log as /v1: the queue filters and searches what GET /v1/proposals lists, a review is the same
// approve / reject transition (here with a mandatory reason), and the history is the audit log.

export const ReviewQueueQuery = z.strictObject({
  environment: z.enum(["sandbox", "production"]).default("sandbox"),
  status: z.enum(PROPOSAL_STATUSES).optional(),
  product: z.enum(["inss_payroll", "private_payroll", "personal_loan"]).optional(),
  from: dateSchema("Created on or after this day (São Paulo)").optional(),
  to: dateSchema("Created on or before this day (São Paulo)").optional(),
  q: z.string().trim().max(100).optional().describe("A proposal id, a CPF/CNPJ (formatted or not) or part of the customer's name"),
  order: z.enum(["newest", "oldest"]).default("newest"),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type ReviewQueueQuery = z.infer<typeof ReviewQueueQuery>;

const PROPOSAL_ID = /^prp_[0-9A-Z]{26}$/;

export const ReviewBody = z.strictObject({
  decision: z.enum(["approve", "reject"]),
  reason: z.string().trim().min(3, "Give the reason (at least 3 characters)").max(500),
});

export async function reviewQueue(scope: Scope, query: ReviewQueueQuery) {
  const keyset: Keyset = { field: "createdAt", direction: query.order === "oldest" ? "asc" : "desc" };
  const found = await searchFilter(scope, query.q);
  const filters: Prisma.ProposalWhereInput = {
    ...where(scope),
    ...(query.status ? { status: query.status as ProposalStatus } : {}),
    ...(query.product ? { terms: { path: ["product"], equals: query.product } } : {}),
    ...(query.from || query.to
      ? { createdAt: { ...(query.from ? { gte: startOfDayInBrazil(query.from) } : {}), ...(query.to ? { lt: startOfDayInBrazil(addDays(query.to, 1)) } : {}) } }
      : {}),
    ...found.filter,
  };
  const after = decodeCursor(scope, query.cursor, "proposal");
  const page = await paginate(query.limit, (args) => db().proposal.findMany({ where: { ...filters, ...keysetWhere(after, keyset) }, ...args }), keyset);
  const customerOf = await customerSummaries(scope, page.items.map((p) => p.customerId));
  return { ...toListResponse(scope, page, (row) => ({ ...toProposalResponse(row), customer: customerOf(row.customerId) })), search_capped: found.capped };
}

/** The search box: a proposal id, or a customer's document or name. */
async function searchFilter(scope: Scope, q: string | undefined): Promise<{ filter: Prisma.ProposalWhereInput; capped: boolean }> {
  if (!q) return { filter: {}, capped: false };
  if (PROPOSAL_ID.test(q)) return { filter: { id: q }, capped: false };
  const { ids, capped } = await customerIdsMatching(scope, q);
  return { filter: { customerId: { in: ids } }, capped };
}

/** Everything a reviewer looks at: the proposal, its customer, simulation and schedule, risk assessment, payroll
 *  margin (reservations and endorsement) and its history (who did what, when). */
/** The dossier as a reviewer opens it: read, then the access to its customer's data recorded (./access-log.ts). */
export async function openProposalDossier(scope: Scope, actor: Actor, id: string) {
  const dossier = await proposalDossier(scope, id);
  await recordCustomerAccess(scope, actor, dossier.customer.id, "proposal", id);
  return dossier;
}

export async function proposalDossier(scope: Scope, id: string) {
  if (!PROPOSAL_ID.test(id)) throw notFound("Proposal");
  const proposal = await getProposal(scope, id);
  const [customer, simulation, risk, reservations, endorsements, history] = await Promise.all([
    getCustomer(scope, proposal.customer_id),
    proposal.simulation_id ? getSimulation(scope, proposal.simulation_id) : null,
    proposal.risk_assessment_id ? getRiskAssessment(scope, proposal.risk_assessment_id) : null,
    db().marginReservation.findMany({ where: { ...where(scope), proposalId: id }, orderBy: { createdAt: "asc" } }),
    db().endorsement.findMany({ where: { ...where(scope), proposalId: id }, orderBy: { createdAt: "asc" } }),
    db().auditLog.findMany({ where: { tenantId: scope.tenantId, environment: scope.environment, targetId: id }, orderBy: { createdAt: "asc" } }),
  ]);
  const [names, exposure] = await Promise.all([credentialNames(scope.tenantId, history.map((h) => h.actorLabel)), customerExposure(scope, proposal.customer_id)]);
  return {
    proposal,
    customer,
    exposure,
    simulation,
    risk,
    reservations: reservations.map(toReservationResponse),
    endorsements: endorsements.map(toEndorsementResponse),
    history: history.map((h) => ({ action: h.action, actor: names.get(h.actorLabel) ?? h.actorLabel, actor_type: h.actorType, at: h.createdAt.toISOString(), metadata: h.metadata })),
  };
}

/**
 * What the customer already owes this tenant in the environment, for the reviewer: contracts still collected (active,
 * assigned — the borrower owes an assigned one to its assignee — or written off: a loss to the lender, still the
 * borrower's debt), their outstanding balance, and how many of them have an installment unpaid after its due date today.
 */
async function customerExposure(scope: Scope, customerId: string) {
  const [row] = await db().$queryRaw<{ contracts: number; outstanding: bigint; late: number }[]>`
    SELECT COUNT(*)::int AS contracts, COALESCE(SUM(c.outstanding_balance), 0)::bigint AS outstanding,
           COUNT(*) FILTER (WHERE EXISTS (SELECT 1 FROM installments i WHERE i.contract_id = c.id AND i.status IN ('open', 'partially_paid')
                                                                        AND i.due_date <= ${latestLateDueDate(todayInBrazil())}::date))::int AS late
      FROM contracts c
     WHERE c.tenant_id = ${scope.tenantId} AND c.environment = ${scope.environment}::"Environment" AND c.customer_id = ${customerId}
       AND c.status = ANY(${[...COLLECTIBLE]}::text[])`;
  return { contracts: row!.contracts, outstanding: Number(row!.outstanding), late_contracts: row!.late };
}

/** Approve or reject with a reason: the same transition as POST /v1/proposals/{id}/approve|reject. */
export async function reviewProposal(scope: Scope, actor: Actor, id: string, body: z.infer<typeof ReviewBody>) {
  if (!PROPOSAL_ID.test(id)) throw notFound("Proposal");
  return applyProposalAction(scope, actor, id, body.decision, { reason: body.reason });
}
