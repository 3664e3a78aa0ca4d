import type { RiskAssessment } from "@prisma/client";
import type { Decision } from "./scorecard";
import type { RiskAssessmentResponse } from "./schemas";

// A stored assessment → its API object. `inputs` holds exactly what the scorecard read; the margin query's
// id is kept beside them (it is not a scorecard input, only where `margin` came from).
export function toRiskAssessmentResponse(row: RiskAssessment): RiskAssessmentResponse {
  const { margin_query_id: marginQueryId, ...inputs } = row.inputs as RiskAssessmentResponse["inputs"] & { margin_query_id?: string | null };
  return {
    id: row.id,
    object: "risk_assessment",
    customer_id: row.customerId,
    proposal_id: row.proposalId,
    margin_query_id: marginQueryId ?? null,
    scorecard_version: row.scorecardVersion,
    score: row.score,
    band: row.band,
    decision: row.decision as Decision,
    reasons: row.reasons as RiskAssessmentResponse["reasons"],
    max_affordable_installment: Number(row.maxAffordableInstallment),
    inputs: {
      as_of: inputs.as_of,
      customer_kind: inputs.customer_kind,
      birth_date: inputs.birth_date,
      customer_since: inputs.customer_since,
      monthly_income: inputs.monthly_income,
      other_monthly_debt: inputs.other_monthly_debt,
      installment_amount: inputs.installment_amount,
      term_months: inputs.term_months,
      last_due_date: inputs.last_due_date ?? null, // assessments stored before scorecard 2026-11.4 have none
      product: inputs.product,
      payroll_deducted: inputs.payroll_deducted,
      margin: inputs.margin,
      history: inputs.history,
    },
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
  };
}
