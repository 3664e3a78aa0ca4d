import type { Customer, Prisma } from "@prisma/client";
import { todayInBrazil } from "@/lib/clock";
import type { Tx } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { marginForRisk } from "@/lib/payroll/margin-queries";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { where, type Scope } from "@/lib/scope";
import { isoDate } from "@/lib/serialize";
import { historyOf, type InstallmentRow } from "./history";
import { SCORECARD_VERSION } from "./scorecard";
import { scoreRisk, type RiskInputs } from "./score";
import type { RiskAssessmentResponse } from "./schemas";
import { toRiskAssessmentResponse } from "./serialize";
import { deductedInstallment, type ProposalTerms } from "@/lib/proposals/schemas";
import { holdCustomer } from "@/lib/customers/hold-customer";

// Runs the scorecard for a customer and a set of terms, and stores the result with every input it read
// and the scorecard version (an auditor can recompute it). Used by POST /v1/risk-assessments and by
// proposal submission, always inside the caller's transaction, with a `risk_assessment.created` event.

export type RiskSubject = {
  customer: Customer;
  product: ProductCode;
  installmentAmount: number;
  term: number;
  /** The schedule's last due date, when the terms have one (a proposal's, a simulation's). */
  lastDueDate: string | null;
  proposalId: string | null;
  marginQueryId: string | null;
  otherMonthlyDebt: number;
};

export async function assessRiskIn(tx: Tx, scope: Scope, subject: RiskSubject): Promise<RiskAssessmentResponse> {
  const inputs = await gatherInputs(tx, scope, subject);
  const result = scoreRisk(inputs);
  const row = await tx.riskAssessment.create({
    data: {
      id: newId("riskAssessment"),
      ...where(scope),
      customerId: subject.customer.id,
      proposalId: subject.proposalId,
      scorecardVersion: SCORECARD_VERSION,
      score: result.score,
      band: result.band,
      decision: result.decision,
      reasons: result.reasons as unknown as Prisma.InputJsonArray,
      inputs: { ...inputs, margin_query_id: subject.marginQueryId } as unknown as Prisma.InputJsonObject,
      maxAffordableInstallment: BigInt(result.max_affordable_installment),
    },
  });
  const body = toRiskAssessmentResponse(row);
  await writeOutboxEvent(tx, { ...where(scope), type: "risk_assessment.created", payload: body as unknown as Prisma.InputJsonObject });
  return body;
}

async function gatherInputs(tx: Tx, scope: Scope, subject: RiskSubject): Promise<RiskInputs> {
  const { customer } = subject;
  const asOf = todayInBrazil();
  const product = PRODUCTS[subject.product];
  // One assessment of a customer at a time: two proposals submitted together each count the other's installment.
  await lockCustomerAssessments(tx, scope, customer.id);
  // The margin weighs only on the payroll products, and only a query of their paying source (checked).
  const margin = product.payrollLink !== null && subject.marginQueryId ? await marginForRisk(tx, scope, subject.marginQueryId, customer.id, product.payrollLink, subject.proposalId) : null;
  // Every installment the customer has with us (a few hundred at most), judged here with the business-day calendar.
  // `paid_on` is the day in Brasília: a payment at 22:30 on the 30th day late is not the 31st.
  const rows = await tx.$queryRaw<InstallmentRow[]>`
    SELECT i.contract_id, c.status AS contract_status, c.terms->>'product' AS product, i.amount, i.status,
           to_char(i.due_date, 'YYYY-MM-DD') AS due_date, to_char((i.paid_at AT TIME ZONE 'America/Sao_Paulo')::date, 'YYYY-MM-DD') AS paid_on
      FROM installments i JOIN contracts c ON c.id = i.contract_id
     WHERE c.tenant_id = ${scope.tenantId} AND c.environment = ${scope.environment}::"Environment" AND c.customer_id = ${customer.id}`;
  const history = historyOf(rows, asOf);
  // The customer's other proposals on their way to a contract weigh on the commitment as if they were one.
  const pending = await tx.proposal.findMany({
    where: { ...where(scope), customerId: customer.id, status: { in: ["pending_review", "approved", "signed"] }, ...(subject.proposalId ? { id: { not: subject.proposalId } } : {}) },
    select: { terms: true },
  });
  const pendingDebt = pending.reduce((sum, p) => sum + deductedInstallment(p.terms as ProposalTerms), 0);
  return {
    as_of: asOf,
    customer_kind: customer.kind as "person" | "company",
    birth_date: customer.birthDate ? isoDate(customer.birthDate) : null,
    customer_since: todayInBrazil(customer.createdAt),
    monthly_income: customer.monthlyIncome === null ? null : Number(customer.monthlyIncome),
    other_monthly_debt: subject.otherMonthlyDebt + history.openDebt + pendingDebt,
    installment_amount: subject.installmentAmount,
    term_months: subject.term,
    last_due_date: subject.lastDueDate,
    product: subject.product,
    payroll_deducted: product.payrollLink !== null,
    margin,
    history: history.counts,
  };
}

/** The customer of a scoped id, or 404. */
export async function customerIn(tx: Tx, scope: Scope, id: string): Promise<Customer> {
  // Held for the transaction: an erasure of the customer at the same moment waits for this assessment and erases it too.
  const customer = (await holdCustomer(tx, scope, id)) ? await tx.customer.findFirst({ where: { id, ...where(scope) } }) : null;
  if (!customer) throw notFound("Customer");
  return customer;
}

/**
 * The customer's assessment lock (transaction-scoped, re-entrant). Taken before the customer's margin lock wherever a
 * transaction takes both (lib/proposals/submit-proposal.ts): a submit replacing its margin query took margin → risk
 * while a plain submit took risk → margin, and two such submits of one customer deadlocked.
 */
export async function lockCustomerAssessments(tx: Tx, scope: Scope, customerId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`risk:${scope.tenantId}:${scope.environment}:${customerId}`}, 0))`;
}
