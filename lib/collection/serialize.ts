import type { Charge, Payment } from "@prisma/client";
import { centavos, isoDate } from "@/lib/serialize";
import { paymentPageUrl } from "./payment-page";
import type { ChargeResponse, PaymentResponse } from "./schemas";
import type { ChargeStatus } from "./transitions";

export function toChargeResponse(row: Charge): ChargeResponse {
  return {
    id: row.id,
    object: "charge",
    status: row.status as ChargeStatus,
    method: row.method as ChargeResponse["method"],
    contract_id: row.contractId,
    customer_id: row.customerId,
    installment_ids: row.installmentIds,
    settlement_id: row.settlementId,
    due_date: isoDate(row.dueDate),
    amount: centavos(row.amount),
    amount_paid: centavos(row.amountPaid),
    breakdown: row.breakdown as ChargeResponse["breakdown"],
    boleto: (row.boleto as ChargeResponse["boleto"]) ?? null,
    pix: (row.pix as ChargeResponse["pix"]) ?? null,
    beneficiary: (row.beneficiary as ChargeResponse["beneficiary"]) ?? null,
    payment_page_url: paymentPageUrl(row.id, row.environment),
    paid_at: row.paidAt?.toISOString() ?? null,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toPaymentResponse(row: Payment): PaymentResponse {
  return {
    id: row.id,
    object: "payment",
    contract_id: row.contractId,
    charge_id: row.chargeId,
    source: row.source,
    settlement_id: row.settlementId,
    assignment_id: row.assignmentId,
    amount: centavos(row.amount),
    allocations: row.allocations as PaymentResponse["allocations"],
    credit: centavos(row.credit),
    credit_applied: centavos(row.creditApplied),
    competence: row.competence,
    paid_at: row.paidAt.toISOString(),
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
  };
}
