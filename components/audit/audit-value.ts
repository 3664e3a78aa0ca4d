import { formatBRL, isMoneyField } from "@/components/format";

/**
 * One audit metadata value as text: amounts (integer centavos under a money name) in reais, lists of names joined,
 * nested objects as "name: value; …" with the same rule at every level, and a change `{from, to}` as "from → to" read
 * under its field's name — `changes: {monthly_income: {from: 500000, to: 650000}}` is "monthly_income: R$ 5.000,00 →
 * R$ 6.500,00", not centavos a reviewer reads as reais.
 */
export function auditValueText(name: string, value: unknown): string {
  if (typeof value === "number" && Number.isInteger(value) && isMoneyField(name)) return formatBRL(value);
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join(", ");
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const fields = value as Record<string, unknown>;
    const names = Object.keys(fields);
    if (names.length > 0 && names.every((n) => n === "from" || n === "to")) {
      const side = (n: "from" | "to") => (n in fields ? auditValueText(name, fields[n]) : "—");
      return `${side("from")} → ${side("to")}`;
    }
    return names.map((n) => `${n}: ${auditValueText(n, fields[n])}`).join("; ");
  }
  return JSON.stringify(value) ?? String(value);
}
