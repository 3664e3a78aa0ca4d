import type { Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { todayInBrazil } from "@/lib/clock";
import { leavePendingOffer } from "@/lib/assignments/leave-offer";
import { insertChargeIn } from "@/lib/collection/create-charge";
import { lockContract } from "@/lib/contracts/lock-contract";
import { db, type Tx } from "@/lib/db/client";
import { DomainError, invalidField } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { dateColumn, isoDate } from "@/lib/serialize";
import { completeSettlementIn } from "./complete-settlement";
import { prepaymentPlan, type PrepaymentPlan } from "./prepayment-plan";
import { checkNotTaken, checkReceivedDate, checkSettlementHorizon, computeQuote, settleableIn } from "./payoff-quote";
import type { CreateSettlementBody, SettlementResponse } from "./schemas";
import { toSettlementResponse } from "./serialize";

// POST /v1/settlements (and each item of a batch): a full or partial settlement of an active contract on a
// date, from the payoff quote of that date. `received`: completed in the same transaction; `boleto` / `pix`:
// pending, with a charge for its amount issued in the same transaction. The contract row is locked first, and
// a partial unique index keeps one pending settlement per contract, so racing requests cannot both settle it. A
// contract on offer in a pending portfolio assignment leaves the offer in the same transaction.

export async function createSettlement(scope: Scope, actor: Actor, body: CreateSettlementBody): Promise<SettlementResponse> {
  return db().$transaction((tx) => createSettlementIn(tx, scope, actor, body, null));
}

export async function createSettlementIn(tx: Tx, scope: Scope, actor: Actor, body: CreateSettlementBody, batchId: string | null): Promise<SettlementResponse> {
  const date = body.date ?? todayInBrazil();
  await lockContract(tx, scope, body.contract_id);
  const { contract, open } = await settleableIn(tx, scope, body.contract_id, date, "date");
  checkReceivedDate(body.payment_method, date);
  checkSettlementHorizon(date);
  const pending = await tx.settlement.findFirst({ where: { ...where(scope), contractId: contract.id, status: "pending" }, select: { id: true } });
  checkNotTaken(pending?.id ?? null);

  const quote = computeQuote(contract, open, date);
  let amount = quote.amount;
  let reschedule: PrepaymentPlan | null = null;
  if (body.type === "partial") {
    const due = open.find((i) => isoDate(i.dueDate) <= date || i.paidAmount > 0n);
    if (due) {
      throw new DomainError("open_installments_due", `Installment ${due.number} (due ${isoDate(due.dueDate)}) is open or partly paid: pay it first, or settle in full`, { installment_id: due.id });
    }
    // Its period ended, its due date moved to the next business day (`following`): owed in full (lib/finance/prepayment.ts).
    const ended = open.find((i) => isoDate(i.nominalDueDate) <= date);
    if (ended) {
      throw new DomainError(
        "open_installments_due",
        `Installment ${ended.number}'s period ended on ${isoDate(ended.nominalDueDate)} (payable through ${isoDate(ended.dueDate)}, the next business day): pay it first, or settle in full`,
        { installment_id: ended.id },
      );
    }
    if (body.amount! >= quote.present_value) {
      throw invalidField("amount", `Pays the whole balance (${quote.present_value} centavos on ${date}): use type full`);
    }
    reschedule = prepaymentPlan(contract, open, date, body.amount!, body.reduce!);
    amount = body.amount!;
  }
  if (amount <= 0 && body.payment_method !== "received") {
    throw invalidField("payment_method", "Nothing to collect: the contract's credit covers the payoff; use received");
  }

  // The borrower's settlement wins over a pending portfolio offer (CDC art. 52 §2): the contract leaves it here, in this
  // transaction (lib/assignments/leave-offer.ts; the assignment's lock after the contract's, as every path takes them).
  // An assigned contract's live row is its sale: its payoff is the assignee's money, the payment marked so.
  if (contract.status === "active") await leavePendingOffer(tx, scope, actor, contract.id, "settlement");

  const row = await tx.settlement.create({
    data: {
      id: newId("settlement"),
      ...where(scope),
      contractId: contract.id,
      batchId,
      type: body.type,
      status: "pending",
      settlementDate: dateColumn(date),
      amount: BigInt(amount),
      reduce: body.reduce ?? null,
      paymentMethod: body.payment_method,
      quote: quote as unknown as Prisma.InputJsonObject,
      ...(reschedule ? { reschedule: reschedule as unknown as Prisma.InputJsonObject } : {}),
    },
  });
  await writeAudit(tx, { ...where(scope), actor, action: "settlement.created", target: { type: "settlement", id: row.id }, metadata: { contract_id: contract.id, type: body.type, amount, payment_method: body.payment_method } });
  if (body.payment_method === "received") {
    return completeSettlementIn(tx, scope, actor, row, { amount, paidAt: new Date(), source: "settlement" });
  }
  const charge = await insertChargeIn(tx, scope, actor, {
    contract,
    installmentIds: open.map((i) => i.id),
    dueDate: date,
    amount,
    breakdown: [],
    method: body.payment_method,
    settlementId: row.id,
  });
  const withCharge = await tx.settlement.update({ where: { id: row.id }, data: { chargeId: charge.id } });
  const response = toSettlementResponse(withCharge);
  await writeOutboxEvent(tx, { ...where(scope), type: "settlement.created", payload: response as unknown as Prisma.InputJsonObject });
  return response;
}
