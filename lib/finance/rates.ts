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

// Whole calendar months from `from` to `to` plus the leftover days, e.g. Jan 10 → Mar 25 = 2 months + 15 days.
// Month ends clamp, and a month end is a month end counted either way: Jan 31 → Feb 28 is one whole month (counted
// forward from Jan 31), and so is Feb 28 → Mar 31 (counted back from Mar 31) — forward alone made it 1 month + 3
// days, so every due date of a month-end contract after a short month was discounted 1–3 days too far (a payoff on a
// due date came to less than the balance owed). Both countings are made; the one with more whole months, then fewer
// leftover days, is taken.
export function monthsAndDays(from: IsoDate, to: IsoDate): { months: number; days: number } {
  if (daysBetween(from, to) < 0) throw new RangeError(`${to} is before ${from}`);
  const a = parseIsoDate(from);
  const b = parseIsoDate(to);
  const span = (b.year - a.year) * 12 + (b.month - a.month);
  let forward = span;
  while (forward > 0 && daysBetween(addMonths(from, forward), to) < 0) forward -= 1;
  let back = span;
  while (back > 0 && daysBetween(from, addMonths(to, -back)) < 0) back -= 1;
  const counted = [
    { months: forward, days: daysBetween(addMonths(from, forward), to) },
    { months: back, days: daysBetween(from, addMonths(to, -back)) },
  ];
  return counted.sort((x, y) => y.months - x.months || x.days - y.days)[0]!;
}

// Compounding exponent between two dates in contract periods: months + days/30 (the 30-day
// pro-rata convention for partial months used by grace periods and early payoff).
export function periodExponent(from: IsoDate, to: IsoDate): D.Decimal {
  const { months, days } = monthsAndDays(from, to);
  return D.fromRatio(months * 30 + days, 30);
}
