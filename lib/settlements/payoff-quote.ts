import { COLLECTIBLE, type ContractStatus } from "@/lib/contracts/transitions";
import type { Contract, Installment } from "@prisma/client";
import { todayInBrazil } from "@/lib/clock";
import { amountsDue } from "@/lib/collection/allocation";
import { allocatable } from "@/lib/collection/allocation";
import { lateRulesOfTerms } from "@/lib/contracts/late-rules";
import { db, type Tx } from "@/lib/db/client";
import { DomainError, invalidField, notFound } from "@/lib/errors";
import { addDays, payoffLines } from "@/lib/finance";
import { where, type Scope } from "@/lib/scope";
import { centavos, isoDate } from "@/lib/serialize";
import type { PayoffQuoteQuery, PayoffQuoteResponse } from "./schemas";

// GET /v1/contracts/{id}/payoff-quote: what settles an active contract on a date — each open installment at
// its present value at the contract rate (finance library, payoffLines) discounted to its nominal due date (the end of
// the period its interest was computed on; its actual, moved due date says whether it is already due), plus the late
// charges of those already late (the collection module's rules), less the contract's credit. Pure computation over the
// rows read.

// `discountTo: "due_date"`: each line discounted to its actual due date instead, as quotes were before installments
// carried nominal due dates — only for completing a settlement quoted then (./complete-settlement.ts), so the payoff the
// borrower was quoted and is paying is the one it settles on.
export function computeQuote(contract: Contract, open: readonly Installment[], date: string, discountTo: "nominal_due_date" | "due_date" = "nominal_due_date"): PayoffQuoteResponse {
  const late = lateRulesOfTerms(contract.terms);
  const dues = open.map((i) => amountsDue(allocatable(i), late, date));
  const values = payoffLines(
    contract.monthlyRate,
    date,
    open.map((i, k) => ({ number: i.number, due_date: isoDate(i.dueDate), nominal_due_date: isoDate(discountTo === "due_date" ? i.dueDate : i.nominalDueDate), payment: dues[k]!.interest + dues[k]!.principal })),
  );
  const installments = open.map((i, k) => {
    const { fine, late_interest } = dues[k]!;
    const { payment, present_value, discount } = values[k]!;
    return {
      installment_id: i.id,
      number: i.number,
      due_date: isoDate(i.dueDate),
      nominal_due_date: isoDate(i.nominalDueDate),
      open_amount: payment,
      present_value,
      discount,
      fine,
      late_interest,
      total: present_value + fine + late_interest,
    };
  });
  const sum = (pick: (line: (typeof installments)[number]) => number) => installments.reduce((total, line) => total + pick(line), 0);
  const gross = sum((l) => l.total);
  const creditApplied = Math.min(centavos(contract.creditBalance), gross);
  return {
    object: "payoff_quote",
    contract_id: contract.id,
    date,
    monthly_rate: contract.monthlyRate,
    installments,
    outstanding_amount: sum((l) => l.open_amount),
    present_value: sum((l) => l.present_value),
    discount: sum((l) => l.discount),
    late_charges: sum((l) => l.fine + l.late_interest),
    credit_applied: creditApplied,
    amount: gross - creditApplied,
    valid_until: new Date(`${date}T23:59:59.999-03:00`).toISOString(),
  };
}

/** A transaction, or the client itself for reads outside one. */
type Reader = Pick<Tx, "contract" | "installment">;

export async function openInstallmentsIn(tx: Reader, scope: Scope, contractId: string): Promise<Installment[]> {
  return tx.installment.findMany({
    where: { ...where(scope), contractId, status: { in: ["open", "partially_paid"] } },
    orderBy: [{ dueDate: "asc" }, { number: "asc" }],
  });
}

/** How far ahead a payoff may be dated when the contract's last due date is nearer (or past). */
export const LATE_PAYOFF_DAYS = 30;

const maxDate = (a: string, b: string) => (a > b ? a : b);

/** The contract, active, assigned (sold: its payoff is the assignee's money) or written off (still collected), with its open installments; the date checked against today and the last due date. */
export async function settleableIn(tx: Reader, scope: Scope, contractId: string, date: string, param: string, location: "body" | "query" = "body") {
  const contract = await tx.contract.findFirst({ where: { id: contractId, ...where(scope) } });
  const open = contract ? await openInstallmentsIn(tx, scope, contract.id) : [];
  return checkSettleable(contract, open, date, param, location);
}

/** The rules of settleableIn over rows already read (the plain-SQL path reads them itself). */
export function checkSettleable(contract: Contract | null, open: Installment[], date: string, param: string, location: "body" | "query" = "body") {
  if (!contract) throw notFound("Contract");
  if (!COLLECTIBLE.includes(contract.status as ContractStatus)) {
    throw new DomainError("contract_not_active", `The contract is ${contract.status}: only active, assigned and written-off contracts are settled`, { current_status: contract.status });
  }
  if (open.length === 0) throw new DomainError("contract_not_active", "Nothing is open on this contract", { current_status: contract.status });
  const today = todayInBrazil();
  if (date < today) throw invalidField(param, "Must be today or later", location);
  // Up to the last due date (after it nothing is discounted), or 30 days ahead — room for a payoff boleto — when
  // that is later: a contract past its last due date (every installment late) is still settled, at face value
  // plus its late charges to that day.
  const latest = maxDate(isoDate(open.at(-1)!.dueDate), addDays(today, LATE_PAYOFF_DAYS));
  if (date > latest) throw invalidField(param, `Must be on or before ${latest} (the last due date, or ${LATE_PAYOFF_DAYS} days from today when that is later)`, location);
  return { contract, open };
}

/** A settlement is dated at most LATE_PAYOFF_DAYS ahead (room for a payoff boleto). A quote may look further, to the
 *  last due date; a pending settlement holds the contract meanwhile — its credit unused by installments falling due,
 *  no other settlement or assignment — so it is not left pending for months. */
export function checkSettlementHorizon(date: string): void {
  const latest = addDays(todayInBrazil(), LATE_PAYOFF_DAYS);
  if (date > latest) throw invalidField("date", `A settlement is dated at most ${LATE_PAYOFF_DAYS} days ahead (on or before ${latest}); a payoff quote may look further`);
}

/** Funds already received settle on the day they are recorded: a later date would price late charges (and less
 *  discount) for days the money was already there. A later date is for a settlement paid by boleto or Pix. */
export function checkReceivedDate(paymentMethod: string, date: string): void {
  if (paymentMethod === "received" && date !== todayInBrazil()) {
    throw invalidField("date", "Funds received settle today: omit date (or send today's), or use boleto or pix for a later date");
  }
}

/** A contract with a pending settlement cannot get another. (One on offer in a pending portfolio assignment can: it
 *  leaves the offer — lib/assignments/leave-offer.ts.) */
export function checkNotTaken(pendingSettlementId: string | null): void {
  if (pendingSettlementId) {
    throw new DomainError("conflict", `The contract already has a pending settlement (${pendingSettlementId}): complete or cancel it first`, { settlement_id: pendingSettlementId });
  }
}

export async function getPayoffQuote(scope: Scope, contractId: string, query: PayoffQuoteQuery): Promise<PayoffQuoteResponse> {
  const date = query.date ?? todayInBrazil();
  const { contract, open } = await settleableIn(db(), scope, contractId, date, "date", "query");
  return computeQuote(contract, open, date);
}
