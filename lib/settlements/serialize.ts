import type { Settlement } from "@prisma/client";
import { centavos, isoDate } from "@/lib/serialize";
import type { PayoffQuoteResponse, SettlementResponse } from "./schemas";
import type { SettlementStatus } from "./transitions";
import { withNominalDates, type PrepaymentPlan } from "./prepayment-plan";

export function toSettlementResponse(row: Settlement): SettlementResponse {
  return {
    id: row.id,
    object: "settlement",
    contract_id: row.contractId,
    batch_id: row.batchId,
    type: row.type as SettlementResponse["type"],
    status: row.status as SettlementStatus,
    date: isoDate(row.settlementDate),
    amount: centavos(row.amount),
    payment_method: row.paymentMethod as SettlementResponse["payment_method"],
    reduce: (row.reduce as SettlementResponse["reduce"]) ?? null,
    quote: withNominalQuoteDates(row.quote as PayoffQuoteResponse),
    reschedule: row.reschedule ? withNominalDates(row.reschedule as unknown as PrepaymentPlan) : null,
    charge_id: row.chargeId,
    payment_id: row.paymentId,
    cancel_reason: row.cancelReason,
    completed_at: row.completedAt?.toISOString() ?? null,
    canceled_at: row.canceledAt?.toISOString() ?? null,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A quote stored before its lines carried `nominal_due_date` discounted each to its `due_date`. */
function withNominalQuoteDates(quote: PayoffQuoteResponse): PayoffQuoteResponse {
  if (!Array.isArray(quote?.installments) || quote.installments.every((line) => typeof line.nominal_due_date === "string")) return quote;
  return { ...quote, installments: quote.installments.map((line) => ({ ...line, nominal_due_date: line.nominal_due_date ?? line.due_date })) };
}
