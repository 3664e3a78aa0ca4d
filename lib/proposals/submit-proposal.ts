import { isDeepStrictEqual } from "node:util";
import type { Actor } from "@/lib/audit/audit-log";
import type { Proposal } from "@prisma/client";
import { db, type Tx } from "@/lib/db/client";
import { invalidField, notFound } from "@/lib/errors";
import { requireUsableMargin } from "@/lib/payroll/margin-queries";
import { authorityTransactionOptions } from "@/lib/payroll/authority";
import { authorityKey, reserveIn } from "@/lib/payroll/reservations";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { assessRiskIn, customerIn, lockCustomerAssessments } from "@/lib/risk/assess";
import { where, type Scope } from "@/lib/scope";
import { nextState } from "@/lib/state-machine";
import { applyProposalActionIn, checkForward, expiringLapsed } from "./apply-action";
import { deductedInstallment, lastDueDateOf, type ProposalResponse, type ProposalTerms } from "./schemas";
import { PROPOSAL_TRANSITIONS, type ProposalStatus } from "./transitions";

// POST /v1/proposals/{id}/submit: draft → pending_review, then in the same transaction
//  1. the risk scorecard runs (lib/risk): `decline` rejects the proposal with the reason codes;
//  2. payroll products reserve the installment at the authority against the proposal's margin query
//     (a refusal rejects the proposal with the authority's reason);
//  3. `approve` approves it (actor: the risk engine); `review` leaves it pending_review for staff.
// An authority outage (503/504) changes nothing: the whole transaction rolls back and a retry runs again.
// A payroll draft may bring a newer margin query (`margin_query_id`): its margin query lapses long before the draft
// does (24 h against 30 days in the sandbox), and the reservation is made against the query the proposal holds.

const RISK_ENGINE: Actor = { type: "system", label: "risk-engine" };

export async function submitProposal(scope: Scope, actor: Actor, id: string, newMarginQueryId?: string): Promise<ProposalResponse> {
  return expiringLapsed(scope, id, () => submitIn(scope, actor, id, newMarginQueryId));
}

function submitIn(scope: Scope, actor: Actor, id: string, newMarginQueryId: string | undefined): Promise<ProposalResponse> {
  return db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM proposals WHERE id = ${id} AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" FOR UPDATE`;
    const found = await tx.proposal.findFirst({ where: { id, ...where(scope) } });
    if (!found) throw notFound("Proposal");
    const terms = found.terms as ProposalTerms;
    const product = terms.product as ProductCode;
    // A proposal that is not a draft is refused (409) before anything else is looked at. A newer margin query replaces
    // the proposal's, and the risk assessment is made, before the transition: its event then shows the query reserved
    // against and names the assessment (for `review`, the only event of the submit).
    nextState(PROPOSAL_TRANSITIONS, "proposal", found.status as ProposalStatus, "submit");
    checkForward(scope, found, "submit");
    // The customer's locks in one order: assessments, then margin (replacing the query takes the margin lock first).
    await lockCustomerAssessments(tx, scope, found.customerId);
    const proposal = newMarginQueryId === undefined ? found : await replaceMarginQuery(tx, scope, found, product, newMarginQueryId);
    const assessment = await assessRiskIn(tx, scope, {
      customer: await customerIn(tx, scope, proposal.customerId),
      product,
      installmentAmount: deductedInstallment(terms),
      term: terms.term,
      lastDueDate: lastDueDateOf(terms),
      proposalId: id,
      marginQueryId: proposal.marginQueryId,
      otherMonthlyDebt: 0,
    });
    const submitted = await applyProposalActionIn(tx, scope, actor, id, "submit", {
      riskAssessmentId: assessment.id,
      ...(newMarginQueryId !== undefined ? { auditMetadata: { previous_margin_query_id: found.marginQueryId, margin_query_id: newMarginQueryId } } : {}),
    });
    if (assessment.decision === "decline") {
      const codes = assessment.reasons.filter((r) => r.points <= 0).map((r) => r.code);
      return applyProposalActionIn(tx, scope, RISK_ENGINE, id, "reject", { reason: `Declined by risk assessment ${assessment.id}: ${codes.join(", ")}` });
    }
    if (PRODUCTS[product].payrollLink !== null && proposal.marginQueryId !== null) {
      const reservation = await reserveIn(tx, scope, actor, {
        marginQueryId: proposal.marginQueryId,
        customerId: proposal.customerId,
        installmentAmount: deductedInstallment(terms),
        term: terms.term,
        kind: "loan",
        proposalId: id,
        authorityKey: authorityKey(scope, "proposal-reserve", id),
      });
      if (reservation.status === "refused") {
        return applyProposalActionIn(tx, scope, RISK_ENGINE, id, "reject", { reason: `Margin reservation refused by the payroll authority: ${reservation.refusal?.code}` });
      }
    }
    if (assessment.decision === "approve") return applyProposalActionIn(tx, scope, RISK_ENGINE, id, "approve");
    return submitted;
  }, authorityTransactionOptions());
}

/** A payroll draft's newer margin query of the same customer and paying source, usable and covering the installment
 *  (400/422 as at the proposal's creation), recorded on the proposal in the submit's transaction. */
async function replaceMarginQuery(tx: Tx, scope: Scope, proposal: Proposal, product: ProductCode, marginQueryId: string): Promise<Proposal> {
  const link = PRODUCTS[product].payrollLink;
  if (link === null) throw invalidField("margin_query_id", "Only for inss_payroll and private_payroll");
  const terms = proposal.terms as ProposalTerms;
  const replacement = await requireUsableMargin(tx, scope, marginQueryId, proposal.customerId, deductedInstallment(terms), "loan", "margin_query_id", link);
  // Newer, and of the same benefit or employment link: the draft was built, and its averbação is asked, on that source
  // (an older query, or one of another benefit of the same person, was accepted and the loan landed elsewhere).
  const current = proposal.marginQueryId === null ? null : await tx.marginQuery.findFirst({ where: { id: proposal.marginQueryId, ...where(scope) } });
  if (current && replacement.id !== current.id) {
    if (!isDeepStrictEqual(replacement.source, current.source)) throw invalidField("margin_query_id", "The margin query is of another benefit or employment link than the proposal's");
    if (replacement.createdAt <= current.createdAt) throw invalidField("margin_query_id", "The margin query is not newer than the proposal's");
  }
  return tx.proposal.update({ where: { id: proposal.id }, data: { marginQueryId } });
}
