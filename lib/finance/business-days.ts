import { addDays, weekday, type IsoDate } from "./date";
import { isHoliday, type CalendarOptions } from "./holidays";

// What to do with a date that falls on a weekend or holiday: leave it, move forward, move back.
export type AdjustRule = "keep" | "following" | "preceding";

export function isBusinessDay(date: IsoDate, options: CalendarOptions = {}): boolean {
  const day = weekday(date);
  return day !== 0 && day !== 6 && !isHoliday(date, options);
}

// First business day strictly after `date`.
export function nextBusinessDay(date: IsoDate, options: CalendarOptions = {}): IsoDate {
  let candidate = addDays(date, 1);
  while (!isBusinessDay(candidate, options)) candidate = addDays(candidate, 1);
  return candidate;
}

// Last business day strictly before `date`.
export function previousBusinessDay(date: IsoDate, options: CalendarOptions = {}): IsoDate {
  let candidate = addDays(date, -1);
  while (!isBusinessDay(candidate, options)) candidate = addDays(candidate, -1);
  return candidate;
}

export function adjust(date: IsoDate, rule: AdjustRule, options: CalendarOptions = {}): IsoDate {
  if (rule === "keep" || isBusinessDay(date, options)) return date;
  return rule === "following" ? nextBusinessDay(date, options) : previousBusinessDay(date, options);
}

// Business days in (from, to]: counts `to` but not `from`, the usual D+n convention.
export function businessDaysBetween(from: IsoDate, to: IsoDate, options: CalendarOptions = {}): number {
  let count = 0;
  for (let d = addDays(from, 1); d <= to; d = addDays(d, 1)) if (isBusinessDay(d, options)) count += 1;
  return count;
}

// The date n business days after `date` (D+n); n = 0 returns the date itself.
export function addBusinessDays(date: IsoDate, n: number, options: CalendarOptions = {}): IsoDate {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer: ${n}`);
  let result = date;
  for (let i = 0; i < n; i += 1) result = nextBusinessDay(result, options);
  return result;
}
