import type { Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { DomainError, notFound } from "@/lib/errors";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import { dateColumn } from "@/lib/serialize";
import { nextState } from "@/lib/state-machine";
import type { ChargeResponse, ListChargesQuery, ListPaymentsQuery, PaymentResponse } from "./schemas";
import { toChargeResponse, toPaymentResponse } from "./serialize";
import { CHARGE_EVENTS, CHARGE_TRANSITIONS, type ChargeStatus } from "./transitions";

// Reading charges and payments, and canceling a charge.

export async function getCharge(scope: Scope, id: string): Promise<ChargeResponse> {
  const row = await db().charge.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Charge");
  return toChargeResponse(row);
}

export async function listCharges(scope: Scope, query: ListChargesQuery) {
  const after = decodeCursor(scope, query.cursor);
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
    const from = charge.status as ChargeStatus;
    const to = nextState(CHARGE_TRANSITIONS, "charge", from, "cancel");
    const changed = await tx.charge.updateMany({ where: { id, ...where(scope), status: from }, data: { status: to } });
    if (changed.count !== 1) throw new DomainError("invalid_transition", "The charge changed meanwhile; read it again", { current_status: from, action: "cancel" });
    const body = toChargeResponse((await tx.charge.findFirst({ where: { id, ...where(scope) } }))!);
    await writeAudit(tx, { ...where(scope), actor, action: CHARGE_EVENTS.cancel, target: { type: "charge", id }, metadata: { from, to } });
    await writeOutboxEvent(tx, { ...where(scope), type: CHARGE_EVENTS.cancel, payload: body as unknown as Prisma.InputJsonObject });
    return body;
  });
}

export async function getPayment(scope: Scope, id: string): Promise<PaymentResponse> {
  const row = await db().payment.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Payment");
  return toPaymentResponse(row);
}

export async function listPayments(scope: Scope, query: ListPaymentsQuery) {
  const after = decodeCursor(scope, query.cursor);
  const filters = { ...where(scope), ...(query.contract_id ? { contractId: query.contract_id } : {}), ...(query.charge_id ? { chargeId: query.charge_id } : {}) };
  const page = await paginate(query.limit, (args) => db().payment.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, toPaymentResponse);
}
