// Display formatting for the panel (pt-BR conventions), from integer centavos without floating point.

/** 123456789 → "R$ 1.234.567,89"; negative amounts get a leading minus. */
export function formatBRL(centavos: number): string {
  const sign = centavos < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(centavos));
  const reais = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${sign}R$ ${reais},${String(abs % 100).padStart(2, "0")}`;
}

/**
 * What a person types for an amount in reais → integer centavos, by string arithmetic (no floating point):
 * "1.234,56", "1234,56", "R$ 12,5", "1234.56" (a dot with one or two digits after it is the decimal point) and
 * "1.234" (dots as thousands). null for anything else, zero, or more than two decimals.
 */
export function parseBRL(input: string): number | null {
  const text = input.replace(/R\$|\s/g, "");
  let whole: string;
  let cents = "";
  if (text.includes(",")) {
    const match = /^(\d{1,3}(?:\.\d{3})*|\d+),(\d{1,2})$/.exec(text);
    if (!match) return null;
    whole = match[1]!.replace(/\./g, "");
    cents = match[2]!;
  } else if (/^\d+\.\d{1,2}$/.test(text)) {
    [whole, cents] = text.split(".") as [string, string];
  } else if (/^(\d{1,3}(?:\.\d{3})+|\d+)$/.test(text)) {
    whole = text.replace(/\./g, "");
  } else {
    return null;
  }
  const centavos = Number(whole) * 100 + Number(cents.padEnd(2, "0") || "0");
  return Number.isSafeInteger(centavos) && centavos > 0 ? centavos : null;
}

/** "52998224725" → "529.982.247-25"; a CNPJ → "11.222.333/0001-81"; anything else as is. */
export function formatDocument(document: string): string {
  if (/^\d{11}$/.test(document)) return document.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, "$1.$2.$3-$4");
  if (/^[0-9A-Z]{12}\d{2}$/.test(document)) return document.replace(/^(.{2})(.{3})(.{3})(.{4})(\d{2})$/, "$1.$2.$3/$4-$5");
  return document;
}

/** "2026-05-04" → "04/05/2026" (a calendar date: no time zone involved). */
export const formatDate = (iso: string) => iso.slice(0, 10).split("-").reverse().join("/");

export const formatDateTime = (iso: string) => new Date(iso).toLocaleString("pt-BR", { timeZone: "America/Sao_Paulo" });

/** An axis label: whole reais, truncated toward zero ("R$ 1.234"). */
export function formatBRLWhole(centavos: number): string {
  return formatBRL(centavos).replace(/,\d{2}$/, "");
}

/** An exact decimal ratio ("0.1234", "0.0399", "0.01855") as a pt-BR percentage, by moving the point: at least two
 *  places, more only when the rate has them ("12,34%", "3,99%", "1,855%"). */
export function formatPercent(ratio: string): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(ratio);
  if (!match) return ratio;
  const digits = (match[2] ?? "").padEnd(2, "0");
  const whole = Number(match[1]) * 100 + Number(digits.slice(0, 2));
  return `${whole},${digits.slice(2).replace(/0+$/, "").padEnd(2, "0")}%`;
}

/** A percentage the API already gives in percent ("66.54", the CET a year) with a pt-BR comma: "66,54%". */
export function formatPercentValue(percent: string): string {
  return /^-?\d+(?:\.\d+)?$/.test(percent) ? `${percent.replace(".", ",")}%` : percent;
}

const MONTHS: Record<string, string[]> = {
  "pt-BR": ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"],
  en: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
};

/** "2026-05" → "mai/2026" (pt-BR), "May/2026" (en). */
export function formatMonth(month: string, locale = "pt-BR"): string {
  const [year, m] = month.split("-");
  return `${(MONTHS[locale] ?? MONTHS["pt-BR"]!)[Number(m) - 1] ?? m}/${year}`;
}

/** Whether an audit metadata field holds money (integer centavos): `amount`, `credit_after`, `amount_due`, `face_value`,
 *  `outstanding_balance`, `fee`, `monthly_income`, … — a money word as one of the name's parts. */
export function isMoneyField(name: string): boolean {
  return /(^|_)(amount|principal|price|face|credit|balance|refundable|fee|income)(_|$)/.test(name);
}
