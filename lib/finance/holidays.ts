import { addDays, formatIsoDate, parseIsoDate, weekday, type IsoDate } from "./date";
import { easterSunday } from "./easter";

// Brazilian national bank holidays (FEBRABAN calendar): fixed-date national holidays plus the
// Easter-based Carnival Monday/Tuesday, Good Friday and Corpus Christi, which banks do not open on.
export type Holiday = { date: IsoDate; name: string };

// Extra non-business days supplied by the product (state/municipal holidays, exceptional closures).
export type CalendarOptions = { extraHolidays?: readonly IsoDate[] };

const FIXED: readonly { month: number; day: number; name: string; fromYear?: number }[] = [
  { month: 1, day: 1, name: "Confraternização Universal" },
  { month: 4, day: 21, name: "Tiradentes" },
  { month: 5, day: 1, name: "Dia do Trabalho" },
  { month: 9, day: 7, name: "Independência do Brasil" },
  { month: 10, day: 12, name: "Nossa Senhora Aparecida" },
  { month: 11, day: 2, name: "Finados" },
  { month: 11, day: 15, name: "Proclamação da República" },
  // National only from 2024 on (Lei 14.759/2023).
  { month: 11, day: 20, name: "Dia Nacional de Zumbi e da Consciência Negra", fromYear: 2024 },
  { month: 12, day: 25, name: "Natal" },
];

const EASTER_OFFSETS: readonly { offset: number; name: string }[] = [
  { offset: -48, name: "Carnaval (segunda-feira)" },
  { offset: -47, name: "Carnaval (terça-feira)" },
  { offset: -2, name: "Sexta-feira Santa" },
  { offset: 60, name: "Corpus Christi" },
];

// Holidays are a pure function of the year; the cache only avoids recomputing Easter per lookup.
const cache = new Map<number, ReadonlyMap<IsoDate, string>>();

function holidayMap(year: number): ReadonlyMap<IsoDate, string> {
  const cached = cache.get(year);
  if (cached) return cached;
  const easter = easterSunday(year);
  const map = new Map<IsoDate, string>();
  for (const { month, day, name, fromYear } of FIXED) {
    if (fromYear === undefined || year >= fromYear) map.set(formatIsoDate({ year, month, day }), name);
  }
  for (const { offset, name } of EASTER_OFFSETS) map.set(addDays(easter, offset), name);
  // Banks do not open to the public on the year's last business day (Res. CMN 2.932/2002; FEBRABAN announces it as
  // 31 December, or the Friday before when that falls on a weekend): what is due then is paid on the next business
  // day without charges, as on a holiday.
  let last = formatIsoDate({ year, month: 12, day: 31 });
  while (weekday(last) === 0 || weekday(last) === 6 || map.has(last)) last = addDays(last, -1);
  map.set(last, "Último dia útil do ano (sem expediente bancário ao público)");
  cache.set(year, map);
  return map;
}

export function nationalHolidays(year: number): Holiday[] {
  return [...holidayMap(year)].map(([date, name]) => ({ date, name })).sort((a, b) => a.date.localeCompare(b.date));
}

export function isHoliday(date: IsoDate, options: CalendarOptions = {}): boolean {
  const { year } = parseIsoDate(date);
  return holidayMap(year).has(date) || (options.extraHolidays?.includes(date) ?? false);
}
