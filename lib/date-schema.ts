import { z } from "zod";

// The one schema of a calendar date a client sends (`YYYY-MM-DD`): a real date of the proleptic Gregorian
// calendar between 1900-01-01 and 2199-12-31. The range keeps every derived date (96 monthly installments,
// grace periods, business-day shifts, Easter-based holidays) inside what the calendar math is proven on, and
// anything outside it is a client error (400), never a crash.

export const EARLIEST_DATE = "1900-01-01";
export const LATEST_DATE = "2199-12-31";

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return month >= 1 && month <= 12 && day >= 1 && days !== undefined && day <= days;
}

/** A `YYYY-MM-DD` date in the accepted range; `description` becomes the OpenAPI text (the range is appended). */
export function dateSchema(description: string) {
  return z
    .string()
    .trim()
    .refine(isCalendarDate, "Must be a valid date YYYY-MM-DD")
    .refine((d) => !isCalendarDate(d) || (d >= EARLIEST_DATE && d <= LATEST_DATE), `Must be from ${EARLIEST_DATE} to ${LATEST_DATE}`)
    .meta({ description: `${description} \`YYYY-MM-DD\`, from ${EARLIEST_DATE} to ${LATEST_DATE}.`, example: "2026-01-15" });
}
