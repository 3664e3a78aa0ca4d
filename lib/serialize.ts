// Database → API value conversions shared by every resource.

/** BigInt centavos from the database → a JSON number (always a safe integer: amounts are bounded). */
export function centavos(value: bigint): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`Amount out of range: ${value}`);
  return n;
}

export function centavosOrNull(value: bigint | null): number | null {
  return value === null ? null : centavos(value);
}

/** A @db.Date column (UTC midnight) → "YYYY-MM-DD". */
export function isoDate(value: Date): string {
  return value.toISOString().slice(0, 10);
}

export function isoDateOrNull(value: Date | null): string | null {
  return value === null ? null : isoDate(value);
}

/** "YYYY-MM-DD" → the Date a @db.Date column stores. */
export function dateColumn(value: string): Date {
  return new Date(`${value}T00:00:00.000Z`);
}
