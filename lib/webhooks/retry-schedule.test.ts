import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, nextAttemptAt } from "./retry-schedule";

const t0 = new Date("2026-11-23T12:00:00.000Z");
const after = (attempts: number, random: number) => nextAttemptAt(attempts, t0, () => random)!.getTime() - t0.getTime();

describe("webhook retry schedule", () => {
  it("grows 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h, without jitter at the middle of the random range", () => {
    expect([1, 2, 3, 4, 5, 6, 11].map((n) => after(n, 0.5))).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });

  it("jitters each delay by ±20% at most", () => {
    expect(after(2, 0)).toBe(240_000);
    expect(after(2, 0.999999)).toBe(Math.round(300_000 * (0.8 + 0.4 * 0.999999)));
    for (let i = 0; i < 200; i += 1) {
      const delay = nextAttemptAt(4, t0)!.getTime() - t0.getTime();
      expect(delay).toBeGreaterThanOrEqual(7_200_000 * 0.8);
      expect(delay).toBeLessThanOrEqual(7_200_000 * 1.2);
    }
  });

  it("lasts about three days over 12 attempts, then stops", () => {
    expect(MAX_ATTEMPTS).toBe(12);
    let at = t0;
    for (let made = 1; made < MAX_ATTEMPTS; made += 1) at = nextAttemptAt(made, at, () => 0.5)!;
    const hours = (at.getTime() - t0.getTime()) / 3600_000;
    expect(hours).toBeGreaterThan(66);
    expect(hours).toBeLessThan(68);
    expect(nextAttemptAt(MAX_ATTEMPTS, at)).toBeNull();
  });
});
