import type { Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { cancelChargeIn } from "@/lib/collection/cancel-charge";
import { CHARGE_TRANSITIONS, type ChargeStatus } from "@/lib/collection/transitions";
import { lockContract } from "@/lib/contracts/lock-contract";
import { db, type Tx } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { notFound } from "@/lib/errors";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import { cancelEachLapsed } from "@/lib/jobs/cancel-lapsed";
import { nextBusinessDay, type IsoDate } from "@/lib/finance";
import { dateColumn, isoDate } from "@/lib/serialize";
import { nextState } from "@/lib/state-machine";
import type { ListSettlementsQuery, SettlementResponse } from "./schemas";
import { toSettlementResponse } from "./serialize";
import { SETTLEMENT_EVENTS, SETTLEMENT_TRANSITIONS, type SettlementStatus } from "./transitions";

// Reading settlements, canceling one (with its open charge), and the job that cancels those past their date.

export async function getSettlement(scope: Scope, id: string): Promise<SettlementResponse> {
  const row = await db().settlement.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Settlement");
  return toSettlementResponse(row);
}

export async function listSettlements(scope: Scope, query: ListSettlementsQuery) {
  const after = decodeCursor(scope, query.cursor, "settlement");
  const filters: Prisma.SettlementWhereInput = {
    ...where(scope),
    ...(query.contract_id ? { contractId: query.contract_id } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.type ? { type: query.type } : {}),
  };
  const page = await paginate(query.limit, (args) => db().settlement.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, toSettlementResponse);
}

export async function cancelSettlement(scope: Scope, actor: Actor, id: string, reason: string | undefined): Promise<SettlementResponse> {
  return db().$transaction((tx) => cancelSettlementIn(tx, scope, actor, id, reason ?? "canceled by the integrator"));
}

/** Cancels a pending settlement with its open charge — unless `keepCharge` (the charge is being paid right now). */
export async function cancelSettlementIn(tx: Tx, scope: Scope, actor: Actor, id: string, reason: string, options: { keepCharge?: boolean } = {}): Promise<SettlementResponse> {
  // The contract first (lib/contracts/lock-contract.ts): a payment completing this settlement holds it too.
  const owner = await tx.settlement.findFirst({ where: { id, ...where(scope) }, select: { contractId: true } });
  if (!owner) throw notFound("Settlement");
  await lockContract(tx, scope, owner.contractId);
  await tx.$queryRaw`SELECT id FROM settlements WHERE id = ${id} AND tenant_id = ${scope.tenantId} FOR UPDATE`;
  const row = (await tx.settlement.findFirst({ where: { id, ...where(scope) } }))!;
  const from = row.status as SettlementStatus;
  const to = nextState(SETTLEMENT_TRANSITIONS, "settlement", from, "cancel");
  if (row.chargeId && !options.keepCharge) {
    const charge = await tx.charge.findFirst({ where: { id: row.chargeId, ...where(scope) } });
    const chargeFrom = charge?.status as ChargeStatus | undefined;
    if (charge && chargeFrom && CHARGE_TRANSITIONS[chargeFrom].cancel) await cancelChargeIn(tx, scope, actor, charge, { settlement_id: id });
  }
  const updated = await tx.settlement.update({ where: { id }, data: { status: to, canceledAt: new Date(), cancelReason: reason } });
  const body = toSettlementResponse(updated);
  await writeAudit(tx, { ...where(scope), actor, action: SETTLEMENT_EVENTS.cancel, target: { type: "settlement", id }, metadata: { from, to, reason } });
  await writeOutboxEvent(tx, { ...where(scope), type: SETTLEMENT_EVENTS.cancel, payload: body as unknown as Prisma.InputJsonObject });
  return body;
}

/** A contract paid off by its installments: its pending settlements (and their open charges) have nothing left to
 *  settle — a settlement charge paid later would find the contract closed. Canceled in the payment's transaction. */
export async function cancelPendingSettlementsOf(tx: Tx, scope: Scope, actor: Actor, contractId: string, reason: string): Promise<void> {
  const pending = await tx.settlement.findMany({ where: { ...where(scope), contractId, status: "pending" }, select: { id: true } });
  for (const s of pending) await cancelSettlementIn(tx, scope, actor, s.id, reason);
}

/** Business days a settlement stays pending after its date: a boleto paid on the date is cleared and notified the next
 *  business day (one more for a late notice), and a settlement canceled before its money is known would turn a payoff
 *  paid on time into mere credit, the contract left open. */
export const SETTLEMENT_CLEARING_BUSINESS_DAYS = 2;

/** The last day a settlement dated `date` waits for its payment's notice. */
export function clearingDeadline(date: IsoDate): IsoDate {
  let day = date;
  for (let i = 0; i < SETTLEMENT_CLEARING_BUSINESS_DAYS; i++) day = nextBusinessDay(day);
  return day;
}

/** Job: pending settlements whose date and clearing days have passed are canceled (their quote no longer holds). */
export async function cancelLapsedSettlements(today: string): Promise<{ canceled: number }> {
  // Keyset over ids, until none is left: a tail left for the next run would see its charge marked overdue first.
  // Every pending settlement dated before today is read; those still within their clearing days are left for later.
  const lapsedAfter = (after: string) =>
    db().settlement.findMany({
      where: { status: "pending", settlementDate: { lt: dateColumn(today) }, id: { gt: after } },
      select: { id: true, tenantId: true, environment: true, settlementDate: true },
      orderBy: { id: "asc" },
      take: 1000,
    });
  return cancelEachLapsed(
    "settlement",
    lapsedAfter,
    (s) => clearingDeadline(isoDate(s.settlementDate)) >= today,
    (s) => db().$transaction((tx) => cancelSettlementIn(tx, { tenantId: s.tenantId, environment: s.environment }, { type: "system", label: "settlement-job" }, s.id, `lapsed: not paid by its date`)),
  );
}
