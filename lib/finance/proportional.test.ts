import { describe, expect, it } from "vitest";
import { shareProportionally } from "./proportional";

describe("shareProportionally", () => {
  it("splits exactly, the left-over centavos to the largest remainders", () => {
    // 100 over 1:1:1 → 33.33 each; one centavo left → the first (ties keep order).
    expect(shareProportionally(100, [1, 1, 1])).toEqual([34, 33, 33]);
    // 1000 over 300:200:100 → 500, 333.33, 166.67 → the last has the larger remainder.
    expect(shareProportionally(1000, [300, 200, 100])).toEqual([500, 333, 167]);
    expect(shareProportionally(0, [5, 7])).toEqual([0, 0]);
  });

  it("always adds up to the total, each part within a centavo of its exact share", () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let run = 0; run < 200; run++) {
      const weights = Array.from({ length: 1 + (next() % 40) }, () => next() % 10_000_000);
      if (weights.every((w) => w === 0)) continue;
      const total = next() * 1000;
      const parts = shareProportionally(total, weights);
      expect(parts.reduce((s, p) => s + p, 0)).toBe(total);
      const sum = weights.reduce((s, w) => s + w, 0);
      parts.forEach((p, i) => expect(Math.abs(p - (total * weights[i]!) / sum)).toBeLessThan(1.000001));
    }
  });

  it("refuses no parts, zero weights and non-centavo inputs", () => {
    expect(() => shareProportionally(10, [])).toThrow(RangeError);
    expect(() => shareProportionally(10, [0, 0])).toThrow(RangeError);
    expect(() => shareProportionally(1.5, [1])).toThrow(RangeError);
  });
});
