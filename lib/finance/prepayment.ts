import type { IsoDate } from "./date";
import { daysBetween } from "./date";
import { earlyPayoff, type DivisorCache } from "./early-payoff";
import { assertPositiveCentavos, type Centavos } from "./money";
import { buildSchedule } from "./schedule";
import type { AmortizationSystem, Installment } from "./schedule-types";

// Settlements of a contract before its end (CDC art. 52 §2: interest reduced pro rata when paying early).
//
// - payoffLines: each open installment's present value at the payoff date at the contract rate (earlyPayoff,
//   rounded half-up per installment, so the lines add up to the quote's total exactly; installments due on or
//   before the date count at face value — their late charges are the collection module's).
// - prepaymentSchedule: a partial prepayment on `date` lowers the outstanding balance (the remaining
//   installments' present value) by the amount paid, and the balance left is rescheduled on the same due
//   dates by the same amortization system: either every remaining installment gets smaller
//   (`installment_amount`), or the installment stays (at most) what it was and the last ones fall away (`term`).
//
// Nominal dates: an installment's present value is discounted to its nominal due date (early-payoff.ts), the end of
// the period its interest was computed on. The new schedule computes its first period from `date` to the first
// remaining installment's nominal date, then whole months from there; each new row carries those nominal dates
// (`nominal_due_date`), and the installments keep their actual due dates. So the rescheduled installments are worth
// the balance left on `date`, and a later payoff quote right after one of them is the new schedule's closing balance,
// whatever the due date rule. The first remaining installment's nominal date must be after `date`: one whose period
// has ended (a `following` due date moved past a weekend or holiday, e.g. nominal Sunday the 15th, due Monday the
// 16th) is owed in full — rescheduled from its actual date instead, every later period was shifted past its
// installment's due date and each new amount carried interest for days after the borrower paid it.

export type OpenInstallment = {
  number: number;
  due_date: IsoDate;
  /** Where its present value is discounted to: the end of the period its interest was computed on, before the due date
   *  rule moved it to `due_date` (a contract's installments). Omitted: `due_date` (portfolio pricing: cash dates). */
  nominal_due_date?: IsoDate;
  /** What is still open of its face amount. */
  payment: Centavos;
};

export type PayoffLine = OpenInstallment & { present_value: Centavos; discount: Centavos };

export function payoffLines(monthlyRate: string, payoffDate: IsoDate, installments: readonly OpenInstallment[]): PayoffLine[] {
  const divisors: DivisorCache = new Map(); // installments sharing a due date (a portfolio's) share its power
  return installments.map((row) => {
    const { amount, discount } = earlyPayoff({ monthlyRate, payoffDate, installments: [row] }, divisors);
    return { ...row, present_value: amount, discount };
  });
}

export type PrepaymentInput = {
  system: AmortizationSystem;
  monthlyRate: string;
  date: IsoDate;
  /** The open installments, all due after `date`, earliest first, each with its current amortization. */
  remaining: readonly (OpenInstallment & { amortization: Centavos })[];
  /** Paid now, in centavos: less than the remaining installments' present value. */
  amount: Centavos;
  reduce: "installment_amount" | "term";
};

export type PrepaymentResult = {
  /** The remaining installments' present value on `date`, before and after the prepayment. */
  balance_before: Centavos;
  balance_after: Centavos;
  /** The new rows, numbered and dated as the installments they replace, each with the nominal due date its amount
   *  was computed on (what a later payoff discounts it to). */
  schedule: (Installment & { nominal_due_date: IsoDate })[];
  /** Numbers of the installments that fall away (`term`). */
  dropped: number[];
};

export function prepaymentSchedule(input: PrepaymentInput): PrepaymentResult {
  const { remaining } = input;
  if (remaining.length === 0) throw new RangeError("No open installment to prepay");
  assertPositiveCentavos(input.amount, "amount");
  if (daysBetween(input.date, remaining[0]!.due_date) <= 0) throw new RangeError(`Every remaining installment must be due after ${input.date}`);
  const first = remaining[0]!;
  if (first.nominal_due_date !== undefined && daysBetween(input.date, first.nominal_due_date) <= 0) {
    throw new RangeError(`Installment ${first.number}'s period ended on ${first.nominal_due_date} (due ${first.due_date}): it is owed in full`);
  }
  const balanceBefore = payoffLines(input.monthlyRate, input.date, remaining).reduce((sum, line) => sum + line.present_value, 0);
  const balanceAfter = balanceBefore - input.amount;
  if (balanceAfter <= 0) throw new RangeError(`The amount (${input.amount}) settles the whole balance (${balanceBefore}): a full settlement`);

  // Amounts are computed on nominal periods from the first remaining installment's nominal due date (its due date when
  // it has none: portfolio pricing's cash dates); the installments keep their own (already adjusted) due dates.
  // From the first nominal date on, the remaining installments keep their own nominal dates: whole months apart (month
  // ends counted back, ./rates.ts), so the same amounts — and a month-end loan's Mar 31, Apr 30 … are not re-anchored on
  // a clamped Feb 28 as Mar 28, Apr 28 … (a later quote was then a few days of interest over the closing balance).
  const fromNominal = first.nominal_due_date !== undefined;
  const firstDueDate = first.nominal_due_date ?? first.due_date;
  const scheduleOf = (count: number) =>
    buildSchedule(input.system, {
      principal: balanceAfter,
      monthlyRate: input.monthlyRate,
      installments: count,
      disbursementDate: input.date,
      firstDueDate,
      dueDateRule: "keep",
    }).map((row, k) => ({ ...row, number: remaining[k]!.number, due_date: remaining[k]!.due_date, nominal_due_date: (fromNominal && remaining[k]!.nominal_due_date) || row.due_date }));

  let count = remaining.length;
  if (input.reduce === "term") count = input.system === "sac" ? sacCount(balanceAfter, remaining[0]!.amortization, count) : priceCount(scheduleOf, remaining[0]!.payment, count);
  return {
    balance_before: balanceBefore,
    balance_after: balanceAfter,
    schedule: scheduleOf(count),
    dropped: remaining.slice(count).map((row) => row.number),
  };
}

/** SAC keeps its constant amortization: as many installments as it takes to amortize the balance. */
function sacCount(balance: Centavos, amortization: Centavos, most: number): number {
  return Math.min(most, Math.max(1, Math.ceil(balance / Math.max(1, amortization))));
}

/** Price: the fewest installments whose payment is not above the current one (payments fall as the count
 *  grows, so a binary search over 1..most). */
function priceCount(scheduleOf: (count: number) => Installment[], current: Centavos, most: number): number {
  let [low, high] = [1, most];
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (scheduleOf(mid)[0]!.payment <= current) high = mid;
    else low = mid + 1;
  }
  return low;
}
