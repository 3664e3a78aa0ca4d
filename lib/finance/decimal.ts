import { roundDiv, type RoundingMode } from "./rounding";

// Fixed-point decimal: value = raw / 10^SCALE_DIGITS. 36 digits keep rate and discount arithmetic
// far below a centavo even after hundreds of chained operations (each op errs by ≤ 0.5·10^-36).
export type Decimal = { readonly raw: bigint };

export const SCALE_DIGITS = 36;
export const SCALE = 10n ** BigInt(SCALE_DIGITS);

const of = (raw: bigint): Decimal => ({ raw });

export const ZERO = of(0n);
export const ONE = of(SCALE);

const DECIMAL_PATTERN = /^([+-])?(\d+)(?:\.(\d+))?$/;

// Parses "0.0185", "-3", "12.5". No exponents, no thousands separators: rates arrive as plain strings.
export function parse(text: string): Decimal {
  const match = DECIMAL_PATTERN.exec(text.trim());
  if (!match) throw new RangeError(`not a decimal number: "${text}"`);
  const [, sign, intPart = "0", fracPart = ""] = match;
  if (fracPart.length > SCALE_DIGITS) throw new RangeError(`too many decimal places: "${text}"`);
  const raw = BigInt(intPart + fracPart.padEnd(SCALE_DIGITS, "0"));
  return of(sign === "-" ? -raw : raw);
}

export function fromInt(n: number | bigint): Decimal {
  if (typeof n === "number" && !Number.isSafeInteger(n)) throw new RangeError(`not a safe integer: ${n}`);
  return of(BigInt(n) * SCALE);
}

// Exact ratio of two integers, rounded to the scale (used for day fractions such as 17/30).
export function fromRatio(num: number | bigint, den: number | bigint, mode: RoundingMode = "half-even"): Decimal {
  return of(roundDiv(BigInt(num) * SCALE, BigInt(den), mode));
}

export const add = (a: Decimal, b: Decimal): Decimal => of(a.raw + b.raw);
export const sub = (a: Decimal, b: Decimal): Decimal => of(a.raw - b.raw);
export const neg = (a: Decimal): Decimal => of(-a.raw);
export const abs = (a: Decimal): Decimal => (a.raw < 0n ? of(-a.raw) : a);

// Exact product with an integer (no rounding needed).
export function mulInt(a: Decimal, n: number | bigint): Decimal {
  if (typeof n === "number" && !Number.isSafeInteger(n)) throw new RangeError(`not a safe integer: ${n}`);
  return of(a.raw * BigInt(n));
}

export function mul(a: Decimal, b: Decimal, mode: RoundingMode = "half-even"): Decimal {
  return of(roundDiv(a.raw * b.raw, SCALE, mode));
}

export function div(a: Decimal, b: Decimal, mode: RoundingMode = "half-even"): Decimal {
  if (b.raw === 0n) throw new RangeError("division by zero");
  return of(roundDiv(a.raw * SCALE, b.raw, mode));
}

// a^n for an integer n by repeated squaring; negative n divides once at the end.
export function powInt(a: Decimal, n: number): Decimal {
  if (!Number.isSafeInteger(n)) throw new RangeError(`exponent must be an integer: ${n}`);
  let result = ONE;
  let base = a;
  for (let e = Math.abs(n); e > 0; e = Math.floor(e / 2)) {
    if (e % 2 === 1) result = mul(result, base);
    if (e > 1) base = mul(base, base);
  }
  return n < 0 ? div(ONE, result) : result;
}

export const cmp = (a: Decimal, b: Decimal): -1 | 0 | 1 => (a.raw < b.raw ? -1 : a.raw > b.raw ? 1 : 0);
export const sign = (a: Decimal): -1 | 0 | 1 => cmp(a, ZERO);
export const isZero = (a: Decimal): boolean => a.raw === 0n;
export const min = (a: Decimal, b: Decimal): Decimal => (a.raw <= b.raw ? a : b);
export const max = (a: Decimal, b: Decimal): Decimal => (a.raw >= b.raw ? a : b);

// Rounds to an integer with the given mode.
export function toBigInt(a: Decimal, mode: RoundingMode): bigint {
  return roundDiv(a.raw, SCALE, mode);
}

// Fixed number of decimal places, e.g. toFixed(parse("1.005"), 2) === "1.01".
export function toFixed(a: Decimal, places: number, mode: RoundingMode = "half-up"): string {
  if (!Number.isInteger(places) || places < 0 || places > SCALE_DIGITS) throw new RangeError(`bad places: ${places}`);
  const scaled = roundDiv(a.raw, 10n ** BigInt(SCALE_DIGITS - places), mode);
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(places + 1, "0");
  const body = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
  return negative ? `-${body}` : body;
}

// Full precision with trailing zeros removed.
export function toString(a: Decimal): string {
  const fixed = toFixed(a, SCALE_DIGITS, "down");
  return fixed.replace(/\.?0+$/, "");
}
