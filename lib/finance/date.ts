// Calendar dates as "YYYY-MM-DD" strings, converted to a day number (days since 1970-01-01) by
// integer arithmetic only: no Date object, so no timezone or DST can shift a due date.

export type IsoDate = string;

export type DateParts = { year: number; month: number; day: number };

const ISO_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

// A simulation parses the same few hundred dates thousands of times (every candidate principal of a financed
// IOF rebuilds its schedule): valid parses are kept, frozen, in a small bounded cache.
const PARSED = new Map<IsoDate, Readonly<DateParts>>();
const PARSED_MAX = 10_000;

export function parseIsoDate(date: IsoDate): DateParts {
  const hit = PARSED.get(date);
  if (hit) return hit;
  const parts = Object.freeze(parseIsoDateUncached(date));
  if (PARSED.size >= PARSED_MAX) PARSED.clear();
  PARSED.set(date, parts);
  return parts;
}

function parseIsoDateUncached(date: IsoDate): DateParts {
  const match = ISO_PATTERN.exec(date);
  const year = Number(match?.[1]);
  const month = Number(match?.[2]);
  const day = Number(match?.[3]);
  if (!match || year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new RangeError(`not a valid YYYY-MM-DD date: "${date}"`);
  }
  return { year, month, day };
}

export function formatIsoDate({ year, month, day }: DateParts): IsoDate {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

// Days from civil date (proleptic Gregorian), after Howard Hinnant's chrono algorithms.
export function toDayNumber(date: IsoDate): number {
  const { year, month, day } = parseIsoDate(date);
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

export function fromDayNumber(dayNumber: number): IsoDate {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return formatIsoDate({ year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day });
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromDayNumber(toDayNumber(date) + days);
}

// Calendar days from `from` to `to` (negative when `to` is earlier).
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return toDayNumber(to) - toDayNumber(from);
}

// 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
export function weekday(date: IsoDate): number {
  return (((toDayNumber(date) + 4) % 7) + 7) % 7;
}

// Same day n months later, clamped to the month's last day: Jan 31 + 1 month = Feb 28 (or 29).
export function addMonths(date: IsoDate, months: number): IsoDate {
  if (!Number.isInteger(months)) throw new RangeError(`months must be an integer: ${months}`);
  const { year, month, day } = parseIsoDate(date);
  const index = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = index - targetYear * 12 + 1;
  return formatIsoDate({ year: targetYear, month: targetMonth, day: Math.min(day, daysInMonth(targetYear, targetMonth)) });
}

export const compareDates = (a: IsoDate, b: IsoDate): number => toDayNumber(a) - toDayNumber(b);
