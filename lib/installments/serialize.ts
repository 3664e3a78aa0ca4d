import type { Installment, Prisma } from "@prisma/client";
import { centavos, isoDate } from "@/lib/serialize";
import { amountDueOn, statusOn } from "./amount-due";
import type { InstallmentResponse } from "./schemas";

type WithContract = Installment & { contract: { terms: Prisma.JsonValue } };

export function toInstallmentResponse(row: WithContract, asOf: string): InstallmentResponse {
  return {
    id: row.id,
    object: "installment",
    contract_id: row.contractId,
    number: row.number,
    due_date: isoDate(row.dueDate),
    principal: centavos(row.principal),
    interest: centavos(row.interest),
    amount: centavos(row.amount),
    paid_amount: centavos(row.paidAmount),
    status: statusOn(row, asOf),
    paid_at: row.paidAt?.toISOString() ?? null,
    amount_due: amountDueOn(row, row.contract.terms, asOf),
    environment: row.environment,
  };
}
