import type { Charge, Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { todayInBrazil } from "@/lib/clock";
import { closeIfPaidOff } from "@/lib/contracts/close-paid-off";
import { lockContract } from "@/lib/contracts/lock-contract";
import { db, type Tx } from "@/lib/db/client";
import { DomainError, invalidField, notFound } from "@/lib/errors";
import { lateRulesOfTerms } from "@/lib/contracts/late-rules";
import { isLate } from "@/lib/finance";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { centavos, isoDate } from "@/lib/serialize";
import { tryCompleteSettlementIn } from "@/lib/settlements/complete-settlement";
import { cancelSettlementIn } from "@/lib/settlements/settlements";
import { nextState } from "@/lib/state-machine";
import { allocatable, allocate, amountsDue } from "./allocation";
import { applyAllocation } from "./apply-allocation";
import { cancelCoveredCharges } from "./cancel-charge";
import type { ChargeResponse, PaymentResponse } from "./schemas";
import { toChargeResponse, toPaymentResponse } from "./serialize";
import { CHARGE_EVENTS, CHARGE_TRANSITIONS, type ChargeStatus } from "./transitions";

// A payment received for a charge (the sandbox's "pay as the bank would", the provider's notification):
// allocated oldest installment first — fine, late interest, interest, principal — to the charge's
// installments as of the payment date; what is left is the contract's credit. Installments, contract
// balances, charge, payment row, audit and events (`payment.received`, `installment.paid`, `charge.paid` or
// `charge.partially_paid`) in one transaction; the other open charges for the installments it paid, in full or in part,
// are canceled (./cancel-charge.ts), and a payment that pays the contract's last installment closes the contract
// (lib/contracts/close-paid-off.ts). A paid, canceled or expired charge answers 409 and nothing
// changes — unless the caller reports money that already arrived (`whenClosed: "credit"`, the provider's
// notification: a boleto paid twice, or paid after its cancellation reached us but before it reached the bank).
// That money is the borrower's and is in the beneficiary's account, so it is recorded, never refused (a refusal
// would only make the provider retry): a payment with no allocation whose whole amount is the contract's credit,
// audited, with `payment.received`; the charge stays as it is. A settlement's charge paid in full completes the
// settlement instead (lib/settlements).

/** When a payment made on `paidOn` (a day in Brazil) is recorded: now if that is today, else that day's noon. */
export function paidAtOf(paidOn: string, now = new Date()): Date {
  return paidOn === todayInBrazil(now) ? now : new Date(`${paidOn}T12:00:00-03:00`);
}

/** The row of money received for a charge: what it paid (`allocations`) and what became the contract's credit. */
export function chargePaymentRow(
  scope: Scope,
  charge: Pick<Charge, "id" | "method">,
  contract: { id: string; assignmentId: string | null },
  money: { amount: number; allocations: readonly object[]; credit: number; provider?: ProviderEvent; paidAt: Date },
): Prisma.PaymentUncheckedCreateInput {
  return {
    id: newId("payment"),
    ...where(scope),
    contractId: contract.id,
    chargeId: charge.id,
    assignmentId: contract.assignmentId,
    amount: BigInt(money.amount),
    source: charge.method,
    allocations: money.allocations as unknown as Prisma.InputJsonArray,
    credit: BigInt(money.credit),
    provider: money.provider?.name ?? null,
    providerEventId: money.provider?.eventId ?? null,
    paidAt: money.paidAt,
  };
}

/** The payment provider that notified a payment, and its event id (one payment per provider and event). */
export type ProviderEvent = { name: string; eventId: string };

/** `amount` defaults to all that is open on `paidOn` (default today); the source is the charge's method.
 *  `whenClosed`: what a charge that can no longer be paid does with the money — refuse it (409, the default)
 *  or, when `amount` is given, keep it as the contract's credit (the provider already holds it). */
export type ReceivedPayment = { amount?: number; paidOn?: string; provider?: ProviderEvent; whenClosed?: "refuse" | "credit" };

export async function payCharge(scope: Scope, actor: Actor, chargeId: string, received: ReceivedPayment): Promise<{ charge: ChargeResponse; payment: PaymentResponse }> {
  return db().$transaction(async (tx) => {
    // The contract first (lib/contracts/lock-contract.ts), then the charge: a charge's contract never changes.
    const owner = await tx.charge.findFirst({ where: { id: chargeId, ...where(scope) }, select: { contractId: true } });
    if (!owner) throw notFound("Charge");
    await lockContract(tx, scope, owner.contractId);
    await tx.$queryRaw`SELECT id FROM charges WHERE id = ${chargeId} AND tenant_id = ${scope.tenantId} FOR UPDATE`;
    const charge = (await tx.charge.findFirst({ where: { id: chargeId, ...where(scope) } }))!;
    const from = charge.status as ChargeStatus;
    const arrived = received.whenClosed === "credit"; // money the provider already holds: recorded, never refused
    // Not before the charge existed: refused from the sandbox, moved to its issue day when the money is there.
    const issuedOn = todayInBrazil(charge.createdAt);
    const today = todayInBrazil();
    let paidOn = received.paidOn ?? today;
    // Nor after today: late interest would be reckoned to a day to come, and its checkpoint only moves forward.
    if (paidOn > today) {
      if (!arrived) throw invalidField("paid_on", `Must not be after today (${today}, Brasília)`);
      paidOn = today;
    }
    if (paidOn < issuedOn) {
      if (!arrived) throw invalidField("paid_on", `Must not be before the charge was issued (${issuedOn})`);
      paidOn = issuedOn;
    }
    const paidAt = paidAtOf(paidOn);
    // An immediate Pix (cob) past its expiry cannot be paid, whether or not the job has marked it expired yet — one rule
    // for both, so that the job's timing never decides what a payment does. From the sandbox: refused. A provider's
    // notification pays it when the money was taken by the expiry's day in Brasília (its PSP refuses an expired cob, so
    // that is money taken in time, notified late: it must not become mere credit, with more late interest, because the
    // job ran first); a later paid_on is money the cob could no longer take — the contract's credit, never refused.
    const pastExpiry = from === "expired" || ((from === "pending" || from === "partially_paid") && charge.expiresAt !== null && charge.expiresAt <= new Date());
    const takenInTime = arrived && pastExpiry && charge.expiresAt !== null && paidOn <= todayInBrazil(charge.expiresAt);
    const lapsed = pastExpiry && !takenInTime;
    const payable = "pay_partial" in CHARGE_TRANSITIONS[from] && !lapsed;
    if (!payable && arrived && received.amount !== undefined) {
      const payment = await creditClosedCharge(tx, scope, actor, charge, { amount: received.amount, paidAt, provider: received.provider });
      return { charge: toChargeResponse(charge), payment };
    }
    if (lapsed && from === "expired") throw new DomainError("invalid_transition", "The Pix charge expired", { current_status: from, action: "pay" });
    if (lapsed) throw new DomainError("invalid_transition", `The Pix charge expired at ${charge.expiresAt!.toISOString()}`, { current_status: "expired", action: "pay" });
    nextState(CHARGE_TRANSITIONS, "charge", from, "pay_partial"); // 409 for paid, canceled

    let given = received.amount;
    if (charge.settlementId) {
      // Default: what is still open on the charge (it may have been paid in part before).
      given ??= Math.max(0, centavos(charge.amount) - centavos(charge.amountPaid));
      const settled = await settlementPaidIn(tx, scope, actor, charge, given, paidAt, received.provider);
      if (settled) return settled;
    }
    const contract = (await tx.contract.findFirst({ where: { id: charge.contractId, ...where(scope) } }))!;
    const late = lateRulesOfTerms(contract.terms);
    const rows = await tx.installment.findMany({ where: { ...where(scope), id: { in: charge.installmentIds } }, include: { contract: { select: { terms: true } } } });
    const unpaid = rows.filter((r) => r.status === "open" || r.status === "partially_paid");
    // A settlement's charge whose settlement is gone pays only what is due by the payment date; the rest is the
    // contract's credit. Installments not yet due paid at face would lose the early-payoff discount (CDC art. 52 §2):
    // a new settlement nets the credit at present value instead, and the credit job pays installments as they fall due.
    const open = charge.settlementId === null ? unpaid : unpaid.filter((r) => isoDate(r.dueDate) <= paidOn);
    // A charge due on a weekend or holiday and paid on the next business day was paid on time (Lei 7.089/1983): its
    // installments are reckoned as of its due date, so the days between add no late interest to what it asked for.
    const chargeDue = isoDate(charge.dueDate);
    const reckonedOn = paidOn > chargeDue && !isLate(chargeDue, paidOn) ? chargeDue : paidOn;
    const owed = open.reduce((sum, r) => sum + amountsDue(allocatable(r), late, reckonedOn).total, 0);
    const amount = given ?? owed;
    if (amount === 0) throw new DomainError("invalid_transition", "Nothing is open on this charge: its installments are paid or canceled", { current_status: from, action: "pay" });
    const { lines, credit } = open.length > 0 ? allocate(amount, open.map(allocatable), late, reckonedOn) : { lines: [], credit: amount };

    const facePaid = await applyAllocation(tx, scope, open, lines, { at: paidAt, on: reckonedOn, rules: late });
    await tx.contract.update({
      where: { id: contract.id },
      data: { amountPaid: { increment: BigInt(amount - credit) }, outstandingBalance: { decrement: BigInt(facePaid) }, creditBalance: { increment: BigInt(credit) } },
    });

    const settledAll = unpaid.every((r) => lines.some((l) => l.installment_id === r.id && l.settles));
    // A settlement's charge whose settlement is gone (canceled, blocked) is done once its own amount has come in.
    const chargeCovered = charge.settlementId !== null && centavos(charge.amountPaid) + amount >= centavos(charge.amount);
    const action = settledAll || chargeCovered ? "pay_full" : "pay_partial";
    const to = nextState(CHARGE_TRANSITIONS, "charge", from, action);
    const updatedCharge = await tx.charge.update({
      where: { id: charge.id },
      data: { status: to, amountPaid: { increment: BigInt(amount) }, ...(to === "paid" ? { paidAt } : {}) },
    });
    const payment = await tx.payment.create({ data: chargePaymentRow(scope, charge, contract, { amount, allocations: lines, credit, provider: received.provider, paidAt }) });
    const chargeBody = toChargeResponse(updatedCharge);
    const paymentBody = toPaymentResponse(payment);
    await writeAudit(tx, { ...where(scope), actor, action: CHARGE_EVENTS[action], target: { type: "charge", id: charge.id }, metadata: { from, to, payment_id: payment.id, amount } });
    await writeOutboxEvent(tx, { ...where(scope), type: "payment.received", payload: paymentBody as unknown as Prisma.InputJsonObject });
    await writeOutboxEvent(tx, { ...where(scope), type: CHARGE_EVENTS[action], payload: chargeBody as unknown as Prisma.InputJsonObject });
    if (lines.length > 0) {
      // The other open charges for what it paid, in full or in part (./cancel-charge.ts): after this one's lock, the
      // contract's open charges in id order, as every canceling payment takes them.
      const partReason = `its installments were paid in part by charge ${charge.id}`;
      await cancelCoveredCharges(tx, scope, actor, contract.id, `its installments were paid by charge ${charge.id}`, { installmentIds: lines.map((l) => l.installment_id), chargeId: charge.id, partReason });
    }
    if (lines.some((l) => l.settles)) await closeIfPaidOff(tx, scope, actor, contract.id); // its last installment: the contract closes
    return { charge: chargeBody, payment: paymentBody };
  });
}

/** A pending settlement's charge. Money short of the settlement's amount (counting what was paid on this charge
 *  before) is held as the contract's credit, allocated to nothing, the charge `partially_paid`; the payment that
 *  reaches the amount completes the settlement, using the held credit (the payoff is net of the contract's credit)
 *  and the charge is `paid`. A settlement no longer pending: null, and the money is allocated like any payment. So is
 *  a settlement that can no longer be completed (the payoff grew, the installments changed, the contract closed):
 *  it is canceled with that reason (its charge stays, being paid now), and the money, which has arrived, is
 *  allocated to the charge's installments like any payment, the rest the contract's credit — never refused. */
async function settlementPaidIn(tx: Tx, scope: Scope, actor: Actor, charge: Charge, amount: number, paidAt: Date, provider: ProviderEvent | undefined) {
  const settlement = await tx.settlement.findFirst({ where: { id: charge.settlementId!, ...where(scope) } });
  if (!settlement || settlement.status !== "pending") return null;
  const heldBefore = centavos(charge.amountPaid);
  if (heldBefore + amount < centavos(settlement.amount)) return holdTowardSettlement(tx, scope, actor, charge, settlement.id, { amount, paidAt, provider });
  const outcome = await tryCompleteSettlementIn(tx, scope, actor, settlement, { amount, paidAt, source: charge.method, chargeId: charge.id, provider, held: heldBefore });
  if ("blocked" in outcome) {
    await cancelSettlementIn(tx, scope, actor, settlement.id, `its charge ${charge.id} was paid but it could not be completed: ${outcome.blocked}`, { keepCharge: true });
    return null;
  }
  const done = outcome.done;
  const from = charge.status as ChargeStatus;
  const to = nextState(CHARGE_TRANSITIONS, "charge", from, "pay_full");
  const updatedCharge = await tx.charge.update({ where: { id: charge.id }, data: { status: to, amountPaid: { increment: BigInt(amount) }, paidAt } });
  const payment = (await tx.payment.findFirst({ where: { id: done.payment_id!, ...where(scope) } }))!;
  const chargeBody = toChargeResponse(updatedCharge);
  await writeAudit(tx, { ...where(scope), actor, action: CHARGE_EVENTS.pay_full, target: { type: "charge", id: charge.id }, metadata: { from, to, payment_id: payment.id, amount, settlement_id: settlement.id } });
  await writeOutboxEvent(tx, { ...where(scope), type: CHARGE_EVENTS.pay_full, payload: chargeBody as unknown as Prisma.InputJsonObject });
  return { charge: chargeBody, payment: toPaymentResponse(payment) };
}

/** Part of a pending settlement's amount: held as the contract's credit until the rest arrives. */
async function holdTowardSettlement(tx: Tx, scope: Scope, actor: Actor, charge: Charge, settlementId: string, money: { amount: number; paidAt: Date; provider?: ProviderEvent }) {
  const contract = await tx.contract.update({ where: { id: charge.contractId }, data: { creditBalance: { increment: BigInt(money.amount) } }, select: { id: true, assignmentId: true } });
  const from = charge.status as ChargeStatus;
  const to = nextState(CHARGE_TRANSITIONS, "charge", from, "pay_partial");
  const updatedCharge = await tx.charge.update({ where: { id: charge.id }, data: { status: to, amountPaid: { increment: BigInt(money.amount) } } });
  const payment = await tx.payment.create({ data: { ...chargePaymentRow(scope, charge, contract, { ...money, allocations: [], credit: money.amount }), settlementId } });
  const chargeBody = toChargeResponse(updatedCharge);
  const paymentBody = toPaymentResponse(payment);
  await writeAudit(tx, { ...where(scope), actor, action: CHARGE_EVENTS.pay_partial, target: { type: "charge", id: charge.id }, metadata: { from, to, payment_id: payment.id, amount: money.amount, settlement_id: settlementId, held: true } });
  await writeOutboxEvent(tx, { ...where(scope), type: "payment.received", payload: paymentBody as unknown as Prisma.InputJsonObject });
  await writeOutboxEvent(tx, { ...where(scope), type: CHARGE_EVENTS.pay_partial, payload: chargeBody as unknown as Prisma.InputJsonObject });
  return { charge: chargeBody, payment: paymentBody };
}

/** Money received for a charge that can no longer be paid: all of it becomes the contract's credit. */
async function creditClosedCharge(tx: Tx, scope: Scope, actor: Actor, charge: Charge, money: { amount: number; paidAt: Date; provider?: ProviderEvent }): Promise<PaymentResponse> {
  const contract = await tx.contract.update({
    where: { id: charge.contractId },
    data: { creditBalance: { increment: BigInt(money.amount) } },
    select: { id: true, assignmentId: true },
  });
  const payment = await tx.payment.create({ data: chargePaymentRow(scope, charge, contract, { ...money, allocations: [], credit: money.amount }) });
  const body = toPaymentResponse(payment);
  await writeAudit(tx, {
    ...where(scope),
    actor,
    action: "payment.received",
    target: { type: "payment", id: payment.id },
    metadata: { charge_id: charge.id, charge_status: charge.status, amount: money.amount, credit: money.amount },
  });
  await writeOutboxEvent(tx, { ...where(scope), type: "payment.received", payload: body as unknown as Prisma.InputJsonObject });
  return body;
}
