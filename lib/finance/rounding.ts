// Integer division with an explicit rounding mode: the single place where rounding decisions live.

export type RoundingMode = "half-up" | "half-even" | "down" | "up" | "floor" | "ceiling";

// Divides n by d and rounds to an integer. "half-up" rounds ties away from zero, "down" truncates
// toward zero, "up" away from zero, "floor"/"ceiling" toward −∞/+∞.
export function roundDiv(n: bigint, d: bigint, mode: RoundingMode): bigint {
  if (d === 0n) throw new RangeError("division by zero");
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const away = n < 0n ? q - 1n : q + 1n;
  const twiceR = r < 0n ? -2n * r : 2n * r;
  switch (mode) {
    case "down":
      return q;
    case "up":
      return away;
    case "floor":
      return n < 0n ? q - 1n : q;
    case "ceiling":
      return n < 0n ? q : q + 1n;
    case "half-up":
      return twiceR >= d ? away : q;
    case "half-even":
      if (twiceR > d) return away;
      if (twiceR < d) return q;
      return q % 2n === 0n ? q : away;
  }
}

// roundDiv on safe integers (|n|, |d| ≤ Number.MAX_SAFE_INTEGER), for hot paths whose operands are small:
// the same result as roundDiv(BigInt(n), BigInt(d), mode) (rounding.property.test.ts), with no BigInt.
// Exact: n % d is exact on doubles, n − r is an exact multiple of d, so (n − r) / d is the exact integer
// quotient; 2·|r| < 2^54 is exact (a power-of-two scaling). No float quotient is ever rounded.
export function roundDivSafe(n: number, d: number, mode: RoundingMode): number {
  if (!Number.isSafeInteger(n) || !Number.isSafeInteger(d)) throw new RangeError(`not safe integers: ${n} / ${d}`);
  if (d === 0) throw new RangeError("division by zero");
  if (d < 0) {
    n = -n;
    d = -d;
  }
  const r = n % d;
  const q = (n - r) / d;
  if (r === 0) return q + 0; // + 0: never −0
  const away = n < 0 ? q - 1 : q + 1;
  const twiceR = r < 0 ? -2 * r : 2 * r;
  switch (mode) {
    case "down":
      return q + 0;
    case "up":
      return away;
    case "floor":
      return n < 0 ? q - 1 : q + 0;
    case "ceiling":
      return n < 0 ? q + 0 : q + 1;
    case "half-up":
      return twiceR >= d ? away : q + 0;
    case "half-even":
      if (twiceR > d) return away;
      if (twiceR < d) return q + 0;
      return q % 2 === 0 ? q + 0 : away;
  }
}
