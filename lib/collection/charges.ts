import type { Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { DomainError, notFound } from "@/lib/errors";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import { dateColumn } from "@/lib/serialize";
import type { ChargeResponse, ListChargesQuery, ListPaymentsQuery, PaymentResponse } from "./schemas";
import { cancelChargeIn } from "./cancel-charge";
import { toChargeResponse, toPaymentResponse } from "./serialize";

// Reading charges and payments, and canceling a charge.

export async function getCharge(scope: Scope, id: string): Promise<ChargeResponse> {
  const row = await db().charge.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Charge");
  return toChargeResponse(row);
}

export async function listCharges(scope: Scope, query: ListChargesQuery) {
  const after = decodeCursor(scope, query.cursor, "charge");
  const filters: Prisma.ChargeWhereInput = {
    ...where(scope),
    ...(query.contract_id ? { contractId: query.contract_id } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.method ? { method: query.method } : {}),
    ...(query.due_from || query.due_to
      ? { dueDate: { ...(query.due_from ? { gte: dateColumn(query.due_from) } : {}), ...(query.due_to ? { lte: dateColumn(query.due_to) } : {}) } }
      : {}),
  };
  const page = await paginate(query.limit, (args) => db().charge.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, toChargeResponse);
}

export async function cancelCharge(scope: Scope, actor: Actor, id: string): Promise<ChargeResponse> {
  return db().$transaction(async (tx) => {
    const charge = await tx.charge.findFirst({ where: { id, ...where(scope) } });
    if (!charge) throw notFound("Charge");
    // A settlement's charge goes with its settlement: canceled alone, the settlement would stay pending with nothing
    // to pay it by, blocking the contract's credit, new settlements and its assignment until its date.
    if (charge.settlementId !== null) {
      throw new DomainError("conflict", `The charge collects settlement ${charge.settlementId}: cancel the settlement instead`, { settlement_id: charge.settlementId });
    }
    const canceled = await cancelChargeIn(tx, scope, actor, charge);
    if (!canceled) throw new DomainError("invalid_transition", "The charge changed meanwhile; read it again", { current_status: charge.status, action: "cancel" });
    return toChargeResponse(canceled);
  });
}

export async function getPayment(scope: Scope, id: string): Promise<PaymentResponse> {
  const row = await db().payment.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Payment");
  return toPaymentResponse(row);
}

export async function listPayments(scope: Scope, query: ListPaymentsQuery) {
  const after = decodeCursor(scope, query.cursor, "payment");
  const filters = { ...where(scope), ...(query.contract_id ? { contractId: query.contract_id } : {}), ...(query.charge_id ? { chargeId: query.charge_id } : {}) };
  const page = await paginate(query.limit, (args) => db().payment.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, toPaymentResponse);
}
