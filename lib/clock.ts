// Business dates are Brazilian: "today" is the calendar date in America/Sao_Paulo, not UTC.
const formatter = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit" });

export function todayInBrazil(now: Date = new Date()): string {
  return formatter.format(now); // en-CA formats as YYYY-MM-DD
}

/** The instant a calendar day (YYYY-MM-DD) begins in Brasília (UTC−3 all year since 2019). */
export function startOfDayInBrazil(date: string): Date {
  return new Date(`${date}T00:00:00.000-03:00`);
}
