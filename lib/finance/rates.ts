import * as D from "./decimal";
import { growth } from "./decimal-math";
import { addMonths, daysBetween, parseIsoDate, type IsoDate } from "./date";

// Rates arrive as decimal strings ("0.0185" = 1.85% a.m.) and never pass through a float.
export function parseRate(text: string, name = "rate"): D.Decimal {
  const rate = D.parse(text);
  if (D.sign(rate) < 0) throw new RangeError(`${name} must not be negative: "${text}"`);
  return rate;
}

// (1+i)^12 − 1: the annual rate equivalent to a monthly compound rate.
export function annualFromMonthly(monthlyRate: string): string {
  return D.toString(growth(parseRate(monthlyRate), D.fromInt(12)));
}

// (1+a)^(1/12) − 1: the monthly rate equivalent to an annual compound rate.
export function monthlyFromAnnual(annualRate: string): string {
  return D.toString(growth(parseRate(annualRate), D.fromRatio(1, 12)));
}

// Whole calendar months from `from` to `to` plus the leftover days, e.g. Jan 10 → Mar 25 = 2 months
// + 15 days. Month ends clamp (Jan 31 → Feb 28 is one whole month).
export function monthsAndDays(from: IsoDate, to: IsoDate): { months: number; days: number } {
  if (daysBetween(from, to) < 0) throw new RangeError(`${to} is before ${from}`);
  const a = parseIsoDate(from);
  const b = parseIsoDate(to);
  let months = (b.year - a.year) * 12 + (b.month - a.month);
  while (months > 0 && daysBetween(addMonths(from, months), to) < 0) months -= 1;
  return { months, days: daysBetween(addMonths(from, months), to) };
}

// Compounding exponent between two dates in contract periods: months + days/30 (the 30-day
// pro-rata convention for partial months used by grace periods and early payoff).
export function periodExponent(from: IsoDate, to: IsoDate): D.Decimal {
  const { months, days } = monthsAndDays(from, to);
  return D.fromRatio(months * 30 + days, 30);
}
