import type { Charge, Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import type { Tx } from "@/lib/db/client";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { nextState } from "@/lib/state-machine";
import { toChargeResponse } from "./serialize";
import { CHARGE_EVENTS, CHARGE_TRANSITIONS, type ChargeStatus } from "./transitions";

// Canceling a charge, in the caller's transaction — the integrator's cancel, a settlement's cancel taking its charge
// along, and charges left with nothing to collect — always the same way: the transition table's `cancel` (409 where it
// has none), a change conditional on the status read (null when someone changed the charge meanwhile), the audit row
// (`from`, `to` and the caller's context) and `charge.canceled`.

export async function cancelChargeIn(tx: Tx, scope: Scope, actor: Actor, charge: Charge, context: Record<string, unknown> = {}): Promise<Charge | null> {
  const from = charge.status as ChargeStatus;
  const to = nextState(CHARGE_TRANSITIONS, "charge", from, "cancel");
  const changed = await tx.charge.updateMany({ where: { id: charge.id, ...where(scope), status: from }, data: { status: to } });
  if (changed.count !== 1) return null;
  const canceled = await tx.charge.findUniqueOrThrow({ where: { id: charge.id } });
  await writeAudit(tx, { ...where(scope), actor, action: CHARGE_EVENTS.cancel, target: { type: "charge", id: charge.id }, metadata: { from, to, ...context } });
  await writeOutboxEvent(tx, { ...where(scope), type: CHARGE_EVENTS.cancel, payload: toChargeResponse(canceled) as unknown as Prisma.InputJsonObject });
  return canceled;
}

// Once installments are paid by other means — another charge for the same installment (a boleto and a Pix issued
// for it, one of them paid), the payroll repasse, the contract's credit — the charges still open for them would ask
// the borrower to pay again. In the transaction of that payment, every open charge of the contract (not a
// settlement's) whose installments are now all paid or canceled is canceled, with the reason. A payment that says what
// it paid (`paid`: a charge's, the contract's credit) also cancels every other open charge that collects one of the
// installments it paid anything of, in full or in part: its barcode or BR Code carries the amount owed before, so paid
// it would bring in again what was just received (a boleto and a Pix for one installment, the boleto paid in part: the
// Pix's code still asks for all of it, and paid the difference would only become credit); the borrower asks for a new
// charge of what is left. The charge that brought the money in stays (its status says what it received), and so does
// one that collects only installments the payment did not touch. Money that arrives for a canceled charge anyway is the
// contract's credit (./pay-charge.ts), never refused.

const OPEN: ChargeStatus[] = ["pending", "partially_paid", "overdue"];

/** The contract's open charges locked, so that their status is read after any change in flight (the job marks charges
 *  overdue without the contract's lock: read unlocked, a charge it had just made `overdue` was skipped by a cancel
 *  conditional on the `pending` read, and stayed open for installments already paid). */
async function lockOpenCharges(tx: Tx, scope: Scope, contractId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM charges WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment"
    AND contract_id = ${contractId} AND settlement_id IS NULL AND status = ANY(${OPEN}::text[]) ORDER BY id FOR UPDATE`;
}

/** What a payment paid: the installments it paid anything of, the charge that brought the money in (if any), and the
 *  reason given to a charge canceled for collecting one of them while they are not all paid. */
export type PaidNow = { installmentIds: readonly string[]; chargeId?: string; partReason: string };

export async function cancelCoveredCharges(tx: Tx, scope: Scope, actor: Actor, contractId: string, reason: string, paid?: PaidNow): Promise<string[]> {
  await lockOpenCharges(tx, scope, contractId);
  const charges = (await tx.charge.findMany({ where: { ...where(scope), contractId, settlementId: null, status: { in: OPEN } } })).filter((c) => c.id !== paid?.chargeId);
  if (charges.length === 0) return [];
  const ids = [...new Set(charges.flatMap((c) => c.installmentIds))];
  const stillOpen = new Set(
    (await tx.installment.findMany({ where: { ...where(scope), id: { in: ids }, status: { in: ["open", "partially_paid"] } }, select: { id: true } })).map((i) => i.id),
  );
  const touched = new Set(paid?.installmentIds ?? []);
  const canceled: string[] = [];
  for (const charge of charges) {
    const why = !charge.installmentIds.some((id) => stillOpen.has(id)) ? reason : paid && charge.installmentIds.some((id) => touched.has(id)) ? paid.partReason : null;
    if (why === null) continue;
    if (await cancelChargeIn(tx, scope, actor, charge, { reason: why })) canceled.push(charge.id);
  }
  return canceled;
}

/** The contract's open charges (not a settlement's) that collect any of `installmentIds` — every one when it is
 *  omitted — canceled with `reason`: installments rescheduled by a partial settlement (the charge asks for the old
 *  amounts), or a contract that ended (withdrawn, settled in full). */
export async function cancelOpenChargesOf(tx: Tx, scope: Scope, actor: Actor, contractId: string, reason: string, installmentIds?: readonly string[]): Promise<string[]> {
  await lockOpenCharges(tx, scope, contractId);
  const charges = await tx.charge.findMany({
    where: { ...where(scope), contractId, settlementId: null, status: { in: OPEN }, ...(installmentIds ? { installmentIds: { hasSome: [...installmentIds] } } : {}) },
  });
  const canceled: string[] = [];
  for (const charge of charges) if (await cancelChargeIn(tx, scope, actor, charge, { reason })) canceled.push(charge.id);
  return canceled;
}
