import { roundDiv } from "./rounding";
import { type Decimal, SCALE, ONE, powInt, toBigInt } from "./decimal";

// exp/ln/pow for fractional exponents ((1+i)^(d/30), CET conversions). Series run at a working
// scale of 10^50 (14 guard digits over Decimal's 36), so results are correct to ~1e-34 relative.
const GUARD = 10n ** 14n;
const W = SCALE * GUARD;

const mulW = (a: bigint, b: bigint): bigint => roundDiv(a * b, W, "half-even");

// 2·atanh(z) = ln((1+z)/(1−z)) = 2·Σ z^(2k+1)/(2k+1); z is at scale W, |z| ≤ 1/3 here.
function twoAtanhW(z: bigint): bigint {
  const z2 = mulW(z, z);
  let power = z;
  let sum = 0n;
  for (let k = 1n; power !== 0n; k += 2n) {
    sum += power / k;
    power = mulW(power, z2);
  }
  return 2n * sum;
}

const LN2_W = twoAtanhW(W / 3n);

// e^x at scale W: x = k·ln2 + r, then e^(r/1024) by Taylor and ten squarings, then a shift by k.
function expW(x: bigint): bigint {
  const k = roundDiv(x, LN2_W, "half-even");
  const r = roundDiv(x - k * LN2_W, 1024n, "half-even");
  let term = W;
  let sum = W;
  for (let n = 1n; term !== 0n; n += 1n) {
    term = roundDiv(term * r, W * n, "half-even");
    sum += term;
  }
  for (let i = 0; i < 10; i += 1) sum = mulW(sum, sum);
  return k >= 0n ? sum << k : roundDiv(sum, 1n << -k, "half-even");
}

// ln(x) at scale W: x = m·2^k with m in [1, 2), ln m = 2·atanh((m−1)/(m+1)).
function lnW(x: bigint): bigint {
  let k = BigInt(x.toString(2).length - W.toString(2).length);
  let m = k >= 0n ? x >> k : x << -k;
  while (m >= 2n * W) {
    m >>= 1n;
    k += 1n;
  }
  while (m < W) {
    m <<= 1n;
    k -= 1n;
  }
  return k * LN2_W + twoAtanhW(roundDiv((m - W) * W, m + W, "half-even"));
}

const toW = (a: Decimal): bigint => a.raw * GUARD;
const fromW = (w: bigint): Decimal => ({ raw: roundDiv(w, GUARD, "half-even") });

export function exp(x: Decimal): Decimal {
  return fromW(expW(toW(x)));
}

export function ln(x: Decimal): Decimal {
  if (x.raw <= 0n) throw new RangeError("ln of a non-positive number");
  return fromW(lnW(toW(x)));
}

// base^exponent for base > 0; integer exponents take the exact repeated-squaring path.
export function pow(base: Decimal, exponent: Decimal): Decimal {
  if (exponent.raw % SCALE === 0n) return powInt(base, Number(toBigInt(exponent, "down")));
  if (base.raw <= 0n) throw new RangeError("fractional power of a non-positive number");
  return fromW(expW(mulW(lnW(toW(base)), toW(exponent))));
}

// (1+rate)^exponent − 1, the compound growth over a (possibly fractional) number of periods.
export function growth(rate: Decimal, exponent: Decimal): Decimal {
  const factor = pow({ raw: ONE.raw + rate.raw }, exponent);
  return { raw: factor.raw - ONE.raw };
}
