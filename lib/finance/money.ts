import { roundDiv, roundDivSafe, type RoundingMode } from "./rounding";
import { type Decimal, SCALE } from "./decimal";

// Money is an integer number of centavos held in a JS number; Number.isSafeInteger bounds it at
// ±90 trillion BRL, far beyond any loan, and keeps values JSON- and database-friendly.
export type Centavos = number;

export function assertCentavos(value: number, name = "amount"): Centavos {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be an integer number of centavos: ${value}`);
  return value;
}

export function assertPositiveCentavos(value: number, name = "amount"): Centavos {
  assertCentavos(value, name);
  if (value <= 0) throw new RangeError(`${name} must be positive: ${value}`);
  return value;
}

// Exact centavos × rate, rounded once (half-up by default, the market convention for charges).
export function applyRate(amount: Centavos, rate: Decimal, mode: RoundingMode = "half-up"): Centavos {
  return applyRateProRata(amount, rate, 1, 1, mode);
}

// Exact centavos × rate × numerator/denominator (e.g. days/30), rounded once.
export function applyRateProRata(
  amount: Centavos,
  rate: Decimal,
  numerator: number,
  denominator: number,
  mode: RoundingMode = "half-up",
): Centavos {
  assertCentavos(amount);
  // Fast path, same result: a rate such as 0.018 is 18/1000 exactly, and amount × 18 × days over 1000 fits
  // a safe integer; rounding depends only on the ratio's value, so roundDivSafe gives roundDiv's answer.
  // A product beyond 2^53 is never a safe integer as a double (rounding is monotonic): then the BigInt path.
  const small = smallRatio(rate);
  if (small !== undefined && Number.isSafeInteger(numerator) && Number.isSafeInteger(denominator)) {
    const n = amount * small.num * numerator;
    const d = small.den * denominator;
    if (Number.isSafeInteger(n) && Number.isSafeInteger(d) && d !== 0) return roundDivSafe(n, d, mode);
  }
  const n = BigInt(amount) * rate.raw * BigInt(numerator);
  return fromBigInt(roundDiv(n, SCALE * BigInt(denominator), mode));
}

// rate = num / den with den = 10^k as small as the rate's digits allow, when both are safe integers.
type SmallRatio = { num: number; den: number };
// Keyed by value (each schedule parses its rate into a new Decimal); bounded like date.ts's parse cache.
const RATIOS = new Map<bigint, SmallRatio | null>();
const RATIOS_MAX = 1_000;

function smallRatio(rate: Decimal): SmallRatio | undefined {
  let ratio = RATIOS.get(rate.raw);
  if (ratio === undefined) {
    ratio = null;
    let num = rate.raw;
    let den = SCALE;
    while (den > 1n && num % 10n === 0n) {
      num /= 10n;
      den /= 10n;
    }
    if (num >= BigInt(-Number.MAX_SAFE_INTEGER) && num <= BigInt(Number.MAX_SAFE_INTEGER) && den <= BigInt(Number.MAX_SAFE_INTEGER)) {
      ratio = { num: Number(num), den: Number(den) };
    }
    if (RATIOS.size >= RATIOS_MAX) RATIOS.clear();
    RATIOS.set(rate.raw, ratio);
  }
  return ratio ?? undefined;
}

// A Decimal amount of centavos rounded to a whole centavo.
export function roundCentavos(value: Decimal, mode: RoundingMode = "half-up"): Centavos {
  return fromBigInt(roundDiv(value.raw, SCALE, mode));
}

function fromBigInt(value: bigint): Centavos {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`amount out of range: ${value}`);
  return n;
}

// "1234.56" or "1234.5" or "1234" (reais) → 123456 centavos; more than two decimals is an error.
export function parseReais(text: string): Centavos {
  const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) throw new RangeError(`not an amount in reais: "${text}"`);
  const [, minus, whole = "0", cents = ""] = match;
  const value = fromBigInt(BigInt(whole) * 100n + BigInt(cents.padEnd(2, "0")));
  return minus && value !== 0 ? -value : value;
}

// 123456 → "1234.56" (machine format, for APIs).
export function formatReais(amount: Centavos): string {
  assertCentavos(amount);
  const abs = Math.abs(amount);
  const body = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
  return amount < 0 ? `-${body}` : body;
}

// 123456 → "R$ 1.234,56" (pt-BR display format, built by hand so no ICU data is needed).
export function formatBRL(amount: Centavos): string {
  const [whole = "0", cents = "00"] = formatReais(Math.abs(amount)).split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${amount < 0 ? "-" : ""}R$ ${grouped},${cents}`;
}
