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
