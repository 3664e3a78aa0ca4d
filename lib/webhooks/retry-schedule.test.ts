import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, MAX_DELAY_MS, nextAttemptAt, PLATFORM_RETRY_MS, platformRetryAt, retryAfterMs, withRetryAfter } from "./retry-schedule";

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

describe("Retry-After", () => {
  it("is read from 429 and 502/503/504 only: delay-seconds or an HTTP-date", () => {
    expect(retryAfterMs(429, "120", t0)).toBe(120_000);
    expect(retryAfterMs(503, " 0 ", t0)).toBe(0);
    expect(retryAfterMs(502, new Date(t0.getTime() + 90_000).toUTCString(), t0)).toBe(90_000);
    expect(retryAfterMs(504, new Date(t0.getTime() - 90_000).toUTCString(), t0)).toBe(0); // a date already past
    expect(retryAfterMs(503, "soon", t0)).toBeNull();
    expect(retryAfterMs(503, "-5", t0)).toBeNull();
    expect(retryAfterMs(503, undefined, t0)).toBeNull();
    for (const status of [500, 501, 400, 410, null]) expect(retryAfterMs(status, "120", t0)).toBeNull();
  });

  it("moves the next attempt to the later of the schedule and the receiver's wish, capped at the longest step", () => {
    const scheduled = new Date(t0.getTime() + 5_000);
    expect(withRetryAfter(scheduled, t0, 60_000)).toEqual(new Date(t0.getTime() + 60_000));
    expect(withRetryAfter(scheduled, t0, 1_000)).toEqual(scheduled);
    expect(withRetryAfter(scheduled, t0, 7 * 24 * 3600_000)).toEqual(new Date(t0.getTime() + MAX_DELAY_MS));
    expect(MAX_DELAY_MS).toBe(10 * 3600_000);
    expect(withRetryAfter(scheduled, t0, null)).toEqual(scheduled);
    expect(withRetryAfter(null, t0, 60_000)).toBeNull(); // no attempt left: still none
  });

  it("a platform failure is retried after 5 min ±20%, whatever the schedule stood at", () => {
    expect(platformRetryAt(t0, () => 0.5).getTime() - t0.getTime()).toBe(PLATFORM_RETRY_MS);
    expect(platformRetryAt(t0, () => 0).getTime() - t0.getTime()).toBe(240_000);
  });
});
