import { addMonths, type IsoDate } from "./date";
import { adjust, type AdjustRule } from "./business-days";
import type { CalendarOptions } from "./holidays";

// n monthly dates counted from the first one (not chained), so Jan 31 → Feb 28 → Mar 31,
// each then moved off weekends/holidays by the rule.
// A simulation builds a schedule per candidate principal, all on the same dates: the (pure) list is kept in
// a small bounded cache and each caller gets its own copy.
const NOMINAL = new Map<string, readonly IsoDate[]>();
const NOMINAL_MAX = 1_000;

export function nominalDueDates(firstDueDate: IsoDate, count: number): IsoDate[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be a positive integer: ${count}`);
  const key = `${firstDueDate}|${count}`;
  let dates = NOMINAL.get(key);
  if (dates === undefined) {
    dates = Array.from({ length: count }, (_, k) => addMonths(firstDueDate, k));
    if (NOMINAL.size >= NOMINAL_MAX) NOMINAL.clear();
    NOMINAL.set(key, dates);
  }
  return dates.slice();
}

export function generateDueDates(
  firstDueDate: IsoDate,
  count: number,
  rule: AdjustRule = "keep",
  options: CalendarOptions = {},
): IsoDate[] {
  return nominalDueDates(firstDueDate, count).map((date) => adjust(date, rule, options));
}

// The nominal due dates of a schedule (before the due date rule moves them): monthly from `firstDueDate` when one was
// given, else one month after another counted from the disbursement date (Jan 31 → Feb 28, Mar 31 …; counted from
// a given first due date Feb 28 they would be Feb 28, Mar 28 …). Interest runs on these periods (schedule-setup.ts),
// so an early payoff discounts each installment to its nominal date (early-payoff.ts).
export function scheduleNominalDates(disbursementDate: IsoDate, count: number, firstDueDate?: IsoDate): IsoDate[] {
  return firstDueDate ? nominalDueDates(firstDueDate, count) : nominalDueDates(disbursementDate, count + 1).slice(1);
}

// The default schedule: one due date per month after disbursement, anchored on the disbursement
// day, so a Jan 31 loan falls due Feb 28, Mar 31, Apr 30 rather than drifting to the 28th.
export function monthlyDueDatesAfter(
  disbursementDate: IsoDate,
  count: number,
  rule: AdjustRule = "keep",
  options: CalendarOptions = {},
): IsoDate[] {
  return nominalDueDates(disbursementDate, count + 1)
    .slice(1)
    .map((date) => adjust(date, rule, options));
}
