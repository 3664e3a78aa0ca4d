import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as D from "./decimal";
import { applyRate, applyRateProRata } from "./money";
import { roundDiv, roundDivSafe, type RoundingMode } from "./rounding";

const MODES: RoundingMode[] = ["half-up", "half-even", "down", "up", "floor", "ceiling"];
const safe = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const nonZero = safe.filter((d) => d !== 0);
// Operands near the edges and exact ties, where a float quotient would go wrong.
// q·2h + h stays a safe integer: |q| ≤ 2^25 and h ≤ 2^26 keep it under 2^53 (2^26 for q reached past it).
const tie = fc.tuple(fc.integer({ min: -(2 ** 25), max: 2 ** 25 }), fc.integer({ min: 1, max: 2 ** 26 })).map(([q, h]) => ({ n: q * 2 * h + h, d: 2 * h }));

describe("roundDivSafe", () => {
  it("equals the BigInt roundDiv on any safe integers, in every mode", () => {
    fc.assert(
      fc.property(safe, nonZero, fc.constantFrom(...MODES), (n, d, mode) => {
        expect(roundDivSafe(n, d, mode)).toBe(Number(roundDiv(BigInt(n), BigInt(d), mode)));
      }),
      { numRuns: 20_000 },
    );
  });

  it("equals it on small divisors, near-multiples and exact halves", () => {
    const small = fc.integer({ min: -1000, max: 1000 }).filter((d) => d !== 0);
    const nearMultiple = fc.tuple(fc.integer({ min: 1, max: 2 ** 20 }), fc.integer({ min: -(2 ** 32), max: 2 ** 32 }), fc.integer({ min: -2, max: 2 }));
    fc.assert(
      fc.property(fc.oneof(fc.tuple(safe, small), nearMultiple.map(([d, q, e]) => [d * q + e, d] as [number, number]), tie.map(({ n, d }) => [n, d] as [number, number])), fc.constantFrom(...MODES), ([n, d], mode) => {
        const expected = Number(roundDiv(BigInt(n), BigInt(d), mode));
        expect(roundDivSafe(n, d, mode)).toBe(expected);
        expect(Object.is(roundDivSafe(n, d, mode), -0)).toBe(false);
      }),
      { numRuns: 20_000 },
    );
  });

  it("refuses operands beyond Number.MAX_SAFE_INTEGER and a zero divisor", () => {
    expect(() => roundDivSafe(2 ** 53, 3, "half-up")).toThrow(RangeError);
    expect(() => roundDivSafe(1, 0, "half-up")).toThrow(RangeError);
  });
});

describe("applyRate / applyRateProRata (safe-integer fast path)", () => {
  // Rates of few digits take the fast path, long ones the BigInt path: both must equal the exact formula.
  const rate = fc.oneof(
    fc.tuple(fc.integer({ min: 0, max: 10 ** 6 }), fc.integer({ min: 0, max: 12 })).map(([m, e]) => D.fromRatio(m, 10 ** e)),
    fc.bigInt({ min: -(10n ** 37n), max: 10n ** 37n }).map((raw) => ({ raw })),
  );
  const amount = fc.oneof(fc.integer({ min: -(10 ** 12), max: 10 ** 12 }), safe);
  const exact = (a: number, r: D.Decimal, num: number, den: number, mode: RoundingMode) =>
    Number(roundDiv(BigInt(a) * r.raw * BigInt(num), D.SCALE * BigInt(den), mode));

  it("equals the exact BigInt formula", () => {
    fc.assert(
      fc.property(amount, rate, fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 1000 }), fc.constantFrom(...MODES), (a, r, num, den, mode) => {
        let expected: number | "throws";
        try {
          expected = exact(a, r, num, den, mode);
          if (!Number.isSafeInteger(expected)) expected = "throws";
        } catch {
          expected = "throws";
        }
        if (expected === "throws") expect(() => applyRateProRata(a, r, num, den, mode)).toThrow(RangeError);
        else {
          expect(applyRateProRata(a, r, num, den, mode)).toBe(expected);
          if (num === 1 && den === 1) expect(applyRate(a, r, mode)).toBe(expected);
        }
      }),
      { numRuns: 20_000 },
    );
  });
});
