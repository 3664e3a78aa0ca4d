import { writeAudit, type Actor } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { DomainError, invalidField, notFound } from "@/lib/errors";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { deductedInstallment, lastDueDateOf, type ProposalTerms } from "@/lib/proposals/schemas";
import { where, type Scope } from "@/lib/scope";
import type { SimulationResult } from "@/lib/simulations/compute";
import { checkTerm } from "@/lib/simulations/product-rules";
import { assessRiskIn, customerIn, type RiskSubject } from "./assess";
import type { CreateRiskAssessmentBody, RiskAssessmentResponse } from "./schemas";

// POST /v1/risk-assessments: assess a proposal's, a simulation's or inline terms for a customer, audited as the caller
// (who ran a credit decision). Another tenant's or environment's customer, proposal, simulation or margin query is 404.
// A payroll product is assessed against a margin query of its paying source (the proposal's, or `margin_query_id`:
// 400 `margin_query_required` without one); other products take none (400).
export async function createRiskAssessment(scope: Scope, actor: Actor, body: CreateRiskAssessmentBody): Promise<RiskAssessmentResponse> {
  return db().$transaction(async (tx) => {
    const customer = await customerIn(tx, scope, body.customer_id);
    let subject: Omit<RiskSubject, "customer" | "otherMonthlyDebt">;
    if (body.proposal_id !== undefined) {
      const proposal = await tx.proposal.findFirst({ where: { id: body.proposal_id, ...where(scope) } });
      if (!proposal) throw notFound("Proposal");
      if (proposal.customerId !== customer.id) throw invalidField("proposal_id", "The proposal belongs to another customer");
      const terms = proposal.terms as ProposalTerms;
      subject = {
        product: terms.product as ProductCode,
        installmentAmount: deductedInstallment(terms),
        term: terms.term,
        lastDueDate: lastDueDateOf(terms),
        proposalId: proposal.id,
        marginQueryId: body.margin_query_id ?? proposal.marginQueryId,
      };
    } else if (body.simulation_id !== undefined) {
      const simulation = await tx.simulation.findFirst({ where: { id: body.simulation_id, ...where(scope) } });
      if (!simulation) throw notFound("Simulation");
      if (simulation.customerId !== null && simulation.customerId !== customer.id) throw invalidField("simulation_id", "The simulation belongs to another customer");
      const result = simulation.result as unknown as SimulationResult;
      const lastDueDate = result.schedule.at(-1)?.due_date ?? null;
      subject = { product: result.product as ProductCode, installmentAmount: deductedInstallment(result), term: result.term, lastDueDate, proposalId: null, marginQueryId: body.margin_query_id ?? null };
    } else {
      const terms = body.terms!;
      // A pre-qualification is for a loan the product could make: its term within the product's (an inss_payroll for
      // 120 months was scored and could come back "approve").
      checkTerm(terms.product, terms.term, "terms.term");
      subject = { product: terms.product, installmentAmount: terms.installment_amount, term: terms.term, lastDueDate: null, proposalId: null, marginQueryId: body.margin_query_id ?? null };
    }
    if (PRODUCTS[subject.product].payrollLink === null && subject.marginQueryId !== null) {
      throw invalidField("margin_query_id", "Only for inss_payroll and private_payroll: the payroll margin does not weigh on other products");
    }
    if (PRODUCTS[subject.product].payrollLink !== null && subject.marginQueryId === null) {
      throw new DomainError("margin_query_required", "A payroll product is assessed against the customer's margin: give `margin_query_id` (POST /v1/payroll/margin-queries)");
    }
    const assessment = await assessRiskIn(tx, scope, { ...subject, customer, otherMonthlyDebt: body.other_monthly_debt });
    await writeAudit(tx, {
      ...where(scope),
      actor,
      action: "risk_assessment.created",
      target: { type: "risk_assessment", id: assessment.id },
      metadata: { customer_id: customer.id, proposal_id: assessment.proposal_id, score: assessment.score, decision: assessment.decision },
    });
    return assessment;
  });
}
