import { addMonths, type IsoDate } from "./date";
import { adjust, type AdjustRule } from "./business-days";
import type { CalendarOptions } from "./holidays";

// n monthly dates counted from the first one (not chained), so Jan 31 → Feb 28 → Mar 31,
// each then moved off weekends/holidays by the rule.
export function nominalDueDates(firstDueDate: IsoDate, count: number): IsoDate[] {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be a positive integer: ${count}`);
  return Array.from({ length: count }, (_, k) => addMonths(firstDueDate, k));
}

export function generateDueDates(
  firstDueDate: IsoDate,
  count: number,
  rule: AdjustRule = "keep",
  options: CalendarOptions = {},
): IsoDate[] {
  return nominalDueDates(firstDueDate, count).map((date) => adjust(date, rule, options));
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
