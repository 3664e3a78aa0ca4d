import type { Proposal } from "@prisma/client";
import type { ProposalResponse } from "./schemas";
import { PROPOSAL_TRANSITIONS, type ProposalStatus } from "./transitions";

// Staff-only and internal actions are listed too: the caller's permissions decide whether it may use them.
export function toProposalResponse(row: Proposal, contractId: string | null = null): ProposalResponse {
  const status = row.status as ProposalStatus;
  const terms = row.terms as ProposalResponse["terms"] & Record<string, unknown>;
  return {
    id: row.id,
    object: "proposal",
    status,
    allowed_actions: Object.keys(PROPOSAL_TRANSITIONS[status]).filter((a) => a !== "issue_contract"),
    customer_id: row.customerId,
    simulation_id: row.simulationId,
    terms: {
      product: terms.product,
      amortization: terms.amortization,
      principal: terms.principal,
      released_amount: terms.released_amount,
      installment_amount: terms.installment_amount,
      monthly_rate: terms.monthly_rate,
      term: terms.term,
      disbursement_date: terms.disbursement_date,
      first_due_date: terms.first_due_date,
      cet: terms.cet,
    },
    reason: row.reason,
    contract_id: contractId,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
