import type { Installment } from "@prisma/client";
import { lateCharges, type IsoDate } from "@/lib/finance";
import { centavos, isoDate } from "@/lib/serialize";

// How a payment is applied (pure): installments oldest first; within each, late fine, then late interest,
// then interest, then principal. What is left after every open installment is a credit of the borrower,
// recorded, never lost. Late charges are computed as of the payment date (lib/finance/late-charges.ts) less what was
// already paid of them: the fine on the open face amount; late interest on the face open in each stretch of the
// delay — accrued through the last payment made while late (checkpointed on the row by ./apply-allocation.ts), then
// on the face open since.

export type AllocatableInstallment = {
  id: string;
  number: number;
  dueDate: IsoDate;
  /** The installment's face split. */
  principal: number;
  interest: number;
  /** Face amount paid so far (interest is paid before principal). */
  paidAmount: number;
  finePaid: number;
  lateInterestPaid: number;
  /** Late interest accrued through `lateInterestAccruedOn` (the last payment while late), or 0 and null. */
  lateInterestAccrued: number;
  lateInterestAccruedOn: IsoDate | null;
};

/** An installment row as the allocation reads it. */
export function allocatable(i: Installment): AllocatableInstallment {
  return {
    id: i.id,
    number: i.number,
    dueDate: isoDate(i.dueDate),
    principal: centavos(i.principal),
    interest: centavos(i.interest),
    paidAmount: centavos(i.paidAmount),
    finePaid: centavos(i.finePaid),
    lateInterestPaid: centavos(i.lateInterestPaid),
    lateInterestAccrued: centavos(i.lateInterestAccrued),
    lateInterestAccruedOn: i.lateInterestAccruedOn === null ? null : isoDate(i.lateInterestAccruedOn),
  };
}

export type LateRules = { fineRate: string; monthlyLateInterestRate: string };

export type AmountsDue = { fine: number; late_interest: number; interest: number; principal: number; total: number };

export type AllocationLine = AmountsDue & { installment_id: string; number: number; settles: boolean };

/** What an installment owes on `asOf`, component by component. */
export function amountsDue(installment: AllocatableInstallment, rules: LateRules, asOf: IsoDate): AmountsDue {
  const face = installment.principal + installment.interest;
  const openFace = Math.max(0, face - installment.paidAmount);
  // A first period longer than a month makes the first Price installment's amortization negative (its interest is
  // more than the installment: the excess is capitalized). Its face is still what settles it: interest is capped at
  // the open face, so no component is negative and paying the face settles the row.
  const interest = Math.min(openFace, Math.max(0, installment.interest - installment.paidAmount));
  const principal = openFace - interest;
  let fine = 0;
  let late_interest = 0;
  if (openFace > 0) {
    fine = Math.max(0, lateCharges({ amount: openFace, dueDate: installment.dueDate, asOf, fineRate: rules.fineRate, monthlyLateInterestRate: "0" }).fine - installment.finePaid);
    late_interest = Math.max(0, lateInterestAccrued(installment, rules, asOf) - installment.lateInterestPaid);
  }
  return { fine, late_interest, interest, principal, total: fine + late_interest + interest + principal };
}

/**
 * The late interest an installment has accrued by `asOf`, paid or not: what was accrued through its last payment made
 * while late (on the face open before it), plus the face open now from that day — or from the due date — to `asOf`.
 * A payment while late checkpoints this figure as of its day (./apply-allocation.ts), so the delay before it keeps
 * counting on the larger face.
 */
export function lateInterestAccrued(installment: AllocatableInstallment, rules: LateRules, asOf: IsoDate): number {
  const openFace = Math.max(0, installment.principal + installment.interest - installment.paidAmount);
  const checkpoint = installment.lateInterestAccruedOn !== null && installment.lateInterestAccruedOn > installment.dueDate ? installment.lateInterestAccruedOn : null;
  const since = checkpoint ?? installment.dueDate;
  const running = lateCharges({ amount: openFace, dueDate: installment.dueDate, accruedThrough: since, asOf, fineRate: "0", monthlyLateInterestRate: rules.monthlyLateInterestRate }).late_interest;
  return (checkpoint === null ? 0 : installment.lateInterestAccrued) + running;
}

export function allocate(
  amount: number,
  installments: readonly AllocatableInstallment[],
  rules: LateRules,
  asOf: IsoDate,
): { lines: AllocationLine[]; credit: number } {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`A payment is a positive number of centavos: ${amount}`);
  const ordered = [...installments].sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.number - b.number));
  let left = amount;
  const lines: AllocationLine[] = [];
  for (const installment of ordered) {
    if (left === 0) break;
    const due = amountsDue(installment, rules, asOf);
    if (due.total === 0) continue;
    const take = (owed: number) => {
      const part = Math.min(owed, left);
      left -= part;
      return part;
    };
    const fine = take(due.fine);
    const late_interest = take(due.late_interest);
    const interest = take(due.interest);
    const principal = take(due.principal);
    const total = fine + late_interest + interest + principal;
    lines.push({ installment_id: installment.id, number: installment.number, fine, late_interest, interest, principal, total, settles: total === due.total });
  }
  return { lines, credit: left };
}
