import type { Contract } from "@prisma/client";
import { centavos, isoDate } from "@/lib/serialize";
import { frozenLateCharges } from "./late-rules";
import type { ContractResponse } from "./schemas";
import type { ContractStatus } from "./transitions";

type FrozenTerms = {
  product: string;
  amortization: string;
  released_amount: number;
  first_due_date: string;
  installment_amount: number;
  cet: { monthly_percent: string; annual_percent: string };
  iof: ContractResponse["iof"];
};

export function toContractResponse(row: Contract): ContractResponse {
  const terms = row.terms as FrozenTerms;
  return {
    id: row.id,
    object: "contract",
    number: row.number,
    status: row.status as ContractStatus,
    proposal_id: row.proposalId,
    customer_id: row.customerId,
    product: terms.product,
    amortization: terms.amortization,
    principal: centavos(row.principal),
    released_amount: terms.released_amount,
    monthly_rate: row.monthlyRate,
    term: row.term,
    disbursement_date: isoDate(row.disbursementDate),
    first_due_date: terms.first_due_date,
    installment_amount: terms.installment_amount,
    amount_paid: centavos(row.amountPaid),
    assignment_id: row.assignmentId,
    outstanding_balance: centavos(row.outstandingBalance),
    credit_balance: centavos(row.creditBalance),
    cet: terms.cet,
    iof: terms.iof,
    late_charges: frozenLateCharges(row.terms),
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
