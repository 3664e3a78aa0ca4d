import type { Proposal } from "@prisma/client";
import { frozenLateCharges } from "@/lib/contracts/late-rules";
import { allowedActions } from "@/lib/state-machine";
import { deductedInstallment, type ProposalResponse } from "./schemas";
import { PROPOSAL_TRANSITIONS, type ProposalStatus } from "./transitions";


export function toProposalResponse(row: Proposal, contractId: string | null = null): ProposalResponse {
  const status = row.status as ProposalStatus;
  const terms = row.terms as ProposalResponse["terms"] & Record<string, unknown>;
  return {
    id: row.id,
    object: "proposal",
    status,
    // Actions with an endpoint of their own (staff-only ones too: the caller's permissions decide), as a 409 lists them.
    allowed_actions: allowedActions(PROPOSAL_TRANSITIONS, status),
    customer_id: row.customerId,
    simulation_id: row.simulationId,
    margin_query_id: row.marginQueryId,
    risk_assessment_id: row.riskAssessmentId,
    terms: {
      product: terms.product,
      amortization: terms.amortization,
      principal: terms.principal,
      released_amount: terms.released_amount,
      installment_amount: terms.installment_amount,
      max_installment_amount: deductedInstallment(terms as Parameters<typeof deductedInstallment>[0]),
      monthly_rate: terms.monthly_rate,
      term: terms.term,
      disbursement_date: terms.disbursement_date,
      first_due_date: terms.first_due_date,
      cet: terms.cet,
      late_charges: frozenLateCharges(row.terms),
    },
    reason: row.reason,
    expires_at: row.expiresAt?.toISOString() ?? null,
    contract_id: contractId,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
