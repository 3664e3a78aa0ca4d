import type { Prisma, Settlement } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { toContractResponse } from "@/lib/contracts/serialize";
import { lockContract } from "@/lib/contracts/lock-contract";
import { COLLECTIBLE, CONTRACT_TRANSITIONS, type ContractStatus } from "@/lib/contracts/transitions";
import { todayInBrazil } from "@/lib/clock";
import { cancelOpenChargesOf } from "@/lib/collection/cancel-charge";
import { toInstallmentResponse } from "@/lib/installments/serialize";
import { requestTermination } from "@/lib/payroll/endorsement-termination";
import { toPaymentResponse } from "@/lib/collection/serialize";
import type { Tx } from "@/lib/db/client";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { centavos, dateColumn, isoDate } from "@/lib/serialize";
import { nextState } from "@/lib/state-machine";
import { computeQuote, openInstallmentsIn } from "./payoff-quote";
import { prepaymentPlan, withNominalDates, type PrepaymentPlan } from "./prepayment-plan";
import type { SettlementResponse } from "./schemas";
import { toSettlementResponse } from "./serialize";
import { SETTLEMENT_EVENTS, SETTLEMENT_TRANSITIONS, type SettlementStatus } from "./transitions";

// Completing a settlement, in the caller's transaction (funds received with it, or its charge paid):
// - full: every open installment is paid at its present value on the settlement date (the discount is the
//   interest removed), with the late charges of those late; the contract's balance goes to 0, the credit it
//   used is consumed, and the contract closes (`settled`, event `contract.closed`);
// - partial: the remaining installments take the new schedule (same numbers and due dates; the nominal due dates its
//   amounts were computed on) and, with `term`, the last ones are canceled; the balance is the new schedule's total.
// Money above what the settlement needs becomes the contract's credit, never lost. One payment row records
// it (source `settlement` for funds received outside the platform, else the charge's method), with the contract
// credit the settlement consumed beside that money (`credit_applied`).

/** `held`: earlier payments of this settlement's charge, held as the contract's credit until this one. */
export type Received = { amount: number; paidAt: Date; source: string; chargeId?: string; provider?: { name: string; eventId: string }; held?: number };

export async function completeSettlementIn(tx: Tx, scope: Scope, actor: Actor, settlement: Settlement, received: Received): Promise<SettlementResponse> {
  const outcome = await tryCompleteSettlementIn(tx, scope, actor, settlement, received);
  if ("blocked" in outcome) throw new DomainError("conflict", outcome.blocked);
  return outcome.done;
}

/** Completes the settlement, or says why it cannot (`blocked`) having written nothing: every check comes before
 *  the first write, so a caller holding money that already arrived (a settlement's charge paid) can record it
 *  another way instead of refusing it. The caller's transaction holds the contract's lock (or this takes it). */
export async function tryCompleteSettlementIn(tx: Tx, scope: Scope, actor: Actor, settlement: Settlement, received: Received): Promise<{ done: SettlementResponse } | { blocked: string }> {
  const to = nextState(SETTLEMENT_TRANSITIONS, "settlement", settlement.status as SettlementStatus, "complete");
  await lockContract(tx, scope, settlement.contractId);
  const contract = (await tx.contract.findFirst({ where: { id: settlement.contractId, ...where(scope) } }))!;
  const open = await openInstallmentsIn(tx, scope, contract.id);
  // What this payment must bring: the settlement's amount less what its charge received before, held as credit
  // (unless the credit job has used some of it meanwhile, on installments that fell due).
  const held = Math.min(received.held ?? 0, centavos(contract.creditBalance));
  const needed = centavos(settlement.amount) - held;
  if (received.amount < needed) return { blocked: `The settlement needs ${needed} centavos; ${received.amount} were received` };
  // Above what the settlement needs: the contract's credit (for a full one, above today's payoff of it).
  let overpaid = received.amount - needed;

  let allocations: Prisma.InputJsonArray = [];
  let creditApplied = held; // the contract's credit this payment's settlement consumed beside its money
  if (settlement.type === "full") {
    if (!("settle" in CONTRACT_TRANSITIONS[contract.status as ContractStatus])) return { blocked: `The contract is ${contract.status}: it can no longer be settled` };
    // Recomputed from the installments as they are now (a payment may have reached one since the quote), on the day
    // the money arrived when that is before the settlement's date: a borrower who pays early is not charged a fine or
    // late interest for installments that were not late yet, and gets the discount to that day (CDC art. 52); what
    // they paid above it is their credit. On the settlement's date otherwise: the same figures when nothing moved.
    const settlementDate = settlement.settlementDate.toISOString().slice(0, 10);
    const paidOn = todayInBrazil(received.paidAt);
    // A settlement quoted before installments carried nominal due dates (its stored lines have none) was discounted to
    // the actual due dates, and its charge asks for that: recomputed on nominal dates, a `following` contract's payoff is
    // higher, and the borrower's payment of the quoted amount would cancel it and become mere credit. Such a one settles
    // on the lower of the two (under `preceding` the nominal one: the rest of what was paid is the borrower's credit).
    const pricedOn = paidOn < settlementDate ? paidOn : settlementDate;
    const storedLines = (settlement.quote as { installments?: { nominal_due_date?: unknown }[] } | null)?.installments;
    const quotedOnDueDates = Array.isArray(storedLines) && storedLines.some((line) => typeof line.nominal_due_date !== "string");
    const onNominal = computeQuote(contract, open, pricedOn);
    const onDueDates = quotedOnDueDates ? computeQuote(contract, open, pricedOn, "due_date") : onNominal;
    const quote = onDueDates.amount < onNominal.amount ? onDueDates : onNominal;
    if (quote.amount > needed) return { blocked: `The payoff is now ${quote.amount} centavos; cancel this settlement and quote again` };
    overpaid = received.amount - quote.amount;
    creditApplied = quote.credit_applied;
    const today = todayInBrazil();
    for (const line of quote.installments) {
      const paid = await tx.installment.update({
        where: { id: line.installment_id },
        data: {
          paidAmount: { increment: BigInt(line.open_amount) },
          finePaid: { increment: BigInt(line.fine) },
          lateInterestPaid: { increment: BigInt(line.late_interest) },
          status: "paid",
          paidAt: received.paidAt,
        },
        include: { contract: { select: { terms: true } } },
      });
      await writeOutboxEvent(tx, { ...where(scope), type: "installment.paid", payload: toInstallmentResponse(paid, today) as unknown as Prisma.InputJsonObject });
    }
    allocations = quote.installments.map((l) => ({ installment_id: l.installment_id, number: l.number, fine: l.fine, late_interest: l.late_interest, discount: l.discount, total: l.total }));
    const closed = nextState(CONTRACT_TRANSITIONS, "contract", contract.status as ContractStatus, "settle");
    const updated = await tx.contract.update({
      where: { id: contract.id },
      data: {
        status: closed,
        amountPaid: { increment: BigInt(quote.amount + quote.credit_applied) },
        outstandingBalance: 0n,
        creditBalance: { increment: BigInt(overpaid - creditApplied) },
      },
    });
    await writeAudit(tx, { ...where(scope), actor, action: "contract.closed", target: { type: "contract", id: contract.id }, metadata: { from: contract.status, to: closed, settlement_id: settlement.id } });
    await writeOutboxEvent(tx, { ...where(scope), type: "contract.closed", payload: { ...toContractResponse(updated), reason: "settled", settlement_id: settlement.id } as unknown as Prisma.InputJsonObject });
    await cancelOpenChargesOf(tx, scope, actor, contract.id, `the contract was settled by settlement ${settlement.id}`);
    await requestTermination(tx, scope, actor, contract, "settled"); // a payroll contract's averbação ends
  } else {
    let plan = withNominalDates(settlement.reschedule as unknown as PrepaymentPlan);
    const planned = new Set([...plan.schedule.map((r) => r.installment_id), ...plan.dropped_installment_ids]);
    if (!COLLECTIBLE.includes(contract.status as ContractStatus)) return { blocked: `The contract is ${contract.status}: it can no longer be prepaid` };
    if (open.length !== planned.size || open.some((i) => !planned.has(i.id) || i.paidAmount > 0n)) {
      return { blocked: "The contract's installments changed since this settlement was made; cancel it and make a new one" };
    }
    // Paid before its date: priced on the day the money arrived, as a full settlement is (CDC art. 52 §2). The balance
    // left is the installments' value on that day less the prepayment — the plan made for the later date left the
    // borrower owing the interest of the days between on money already paid (R$ 60 on R$ 3.000 a month early at 2%).
    const paidOn = todayInBrazil(received.paidAt);
    if (paidOn < isoDate(settlement.settlementDate)) {
      try {
        plan = prepaymentPlan(contract, open, paidOn, centavos(settlement.amount), settlement.reduce as "installment_amount" | "term");
      } catch (err) {
        // Too little left to spread, or (worth less that day) the prepayment now covers the whole balance.
        if (err instanceof DomainError || err instanceof RangeError) {
          return { blocked: `Priced on ${paidOn}, the day it was paid (before its date), the prepayment would pay the whole balance or leave too little to reschedule: settle in full instead` };
        }
        throw err;
      }
      await tx.settlement.update({ where: { id: settlement.id }, data: { reschedule: plan as unknown as Prisma.InputJsonObject } });
    }
    for (const row of plan.schedule) {
      // The nominal due date too: the period its new amount was computed on (what a later payoff discounts it to).
      await tx.installment.update({
        where: { id: row.installment_id },
        data: { principal: BigInt(row.amortization), interest: BigInt(row.interest), amount: BigInt(row.payment), nominalDueDate: dateColumn(row.nominal_due_date) },
      });
    }
    if (plan.dropped_installment_ids.length > 0) {
      await tx.installment.updateMany({ where: { id: { in: plan.dropped_installment_ids }, ...where(scope) }, data: { status: "canceled" } });
    }
    await cancelOpenChargesOf(tx, scope, actor, contract.id, `its installments were rescheduled by settlement ${settlement.id}`, [...planned]);
    await tx.contract.update({
      where: { id: contract.id },
      data: {
        amountPaid: { increment: BigInt(needed + creditApplied) },
        outstandingBalance: BigInt(plan.schedule.reduce((sum, r) => sum + r.payment, 0)),
        creditBalance: { increment: BigInt(overpaid - creditApplied) },
      },
    });
  }

  const payment = await tx.payment.create({
    data: {
      id: newId("payment"),
      ...where(scope),
      contractId: contract.id,
      assignmentId: contract.assignmentId, // an assigned contract's payoff is the assignee's money
      chargeId: received.chargeId ?? null,
      settlementId: settlement.id,
      amount: BigInt(received.amount),
      source: received.source,
      allocations,
      credit: BigInt(overpaid),
      creditApplied: BigInt(creditApplied),
      provider: received.provider?.name ?? null,
      providerEventId: received.provider?.eventId ?? null,
      paidAt: received.paidAt,
    },
  });
  const done = await tx.settlement.update({ where: { id: settlement.id }, data: { status: to, completedAt: new Date(), paymentId: payment.id } });
  const body = toSettlementResponse(done);
  await writeOutboxEvent(tx, { ...where(scope), type: "payment.received", payload: toPaymentResponse(payment) as unknown as Prisma.InputJsonObject });
  await writeAudit(tx, { ...where(scope), actor, action: SETTLEMENT_EVENTS.complete, target: { type: "settlement", id: settlement.id }, metadata: { from: settlement.status, to, payment_id: payment.id, amount: received.amount } });
  await writeOutboxEvent(tx, { ...where(scope), type: SETTLEMENT_EVENTS.complete, payload: body as unknown as Prisma.InputJsonObject });
  return { done: body };
}
