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
import { RECENT_DEFAULT_DAYS_LATE, RECENT_DEFAULT_WINDOW_MONTHS, SCORECARD_VERSION } from "./scorecard";
import { scoreRisk, type RiskInputs } from "./score";
import type { RiskAssessmentResponse } from "./schemas";
import { toRiskAssessmentResponse } from "./serialize";
import { latestLateDueDate } from "@/lib/finance";

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
  const margin = subject.marginQueryId ? await marginForRisk(tx, scope, subject.marginQueryId, customer.id, subject.proposalId) : null;
  // What the customer still owes counts whoever holds the contract now: assigned ones (owed to the assignee) and
  // written-off ones weigh on the commitment and, overdue, decline like active ones.
  const [ours] = await tx.$queryRaw<{ open_debt: bigint; paid: bigint; overdue_now: bigint; late: bigint }[]>`
    WITH mine AS (
      SELECT i.contract_id, i.amount, i.paid_amount, i.status, i.due_date, i.paid_at, c.status AS contract_status
        FROM installments i JOIN contracts c ON c.id = i.contract_id
       WHERE c.tenant_id = ${scope.tenantId} AND c.environment = ${scope.environment}::"Environment" AND c.customer_id = ${customer.id}
    )
    SELECT
      COALESCE((SELECT SUM(m) FROM (SELECT MAX(amount) AS m FROM mine
                 WHERE contract_status IN ('active', 'assigned', 'written_off') AND status IN ('open', 'partially_paid') GROUP BY contract_id) open_contracts), 0)::bigint AS open_debt,
      (SELECT COUNT(*) FROM mine WHERE status = 'paid')::bigint AS paid,
      (SELECT COUNT(*) FROM mine WHERE status IN ('open', 'partially_paid') AND contract_status IN ('active', 'assigned', 'written_off') AND due_date <= ${latestLateDueDate(asOf)}::date)::bigint AS overdue_now,
      (SELECT COUNT(*) FROM mine
        WHERE due_date >= (${asOf}::date - make_interval(months => ${RECENT_DEFAULT_WINDOW_MONTHS}))
          AND ((status IN ('open', 'partially_paid') AND due_date < ${asOf}::date - ${RECENT_DEFAULT_DAYS_LATE}::int)
            OR (status = 'paid' AND paid_at::date > due_date + ${RECENT_DEFAULT_DAYS_LATE}::int)))::bigint AS late`;
  return {
    as_of: asOf,
    customer_kind: customer.kind as "person" | "company",
    birth_date: customer.birthDate ? isoDate(customer.birthDate) : null,
    customer_since: todayInBrazil(customer.createdAt),
    monthly_income: customer.monthlyIncome === null ? null : Number(customer.monthlyIncome),
    other_monthly_debt: subject.otherMonthlyDebt + Number(ours!.open_debt),
    installment_amount: subject.installmentAmount,
    term_months: subject.term,
    last_due_date: subject.lastDueDate,
    product: subject.product,
    payroll_deducted: product.payrollLink !== null,
    margin,
    history: { paid_installments: Number(ours!.paid), overdue_now: Number(ours!.overdue_now), late_over_30_days_last_12_months: Number(ours!.late) },
  };
}

/** The customer of a scoped id, or 404. */
export async function customerIn(tx: Tx, scope: Scope, id: string): Promise<Customer> {
  const customer = await tx.customer.findFirst({ where: { id, ...where(scope) } });
  if (!customer) throw notFound("Customer");
  return customer;
}
