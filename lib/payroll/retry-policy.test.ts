import { describe, expect, it } from "vitest";
import { AuthorityError } from "./authority/types";
import { failureMessage, nextAttemptAt, REPLAY_BACKOFF_MS, TERMINATION_BACKOFF_MS } from "./retry-policy";

const now = new Date("2026-11-24T12:00:00.000Z");
const after = (attempts: number, schedule: readonly number[]) => (nextAttemptAt(attempts, now, schedule).getTime() - now.getTime()) / 60_000;

describe("payroll workers' retry policy", () => {
  it("waits 1, 5, 15, 60 minutes and then every 3 hours between replays", () => {
    expect([1, 2, 3, 4, 5, 6, 50].map((n) => after(n, REPLAY_BACKOFF_MS))).toEqual([1, 5, 15, 60, 180, 180, 180]);
  });

  it("never gives up a termination: after 3 hours, every 6 hours", () => {
    expect([1, 5, 6, 7, 1_000].map((n) => after(n, TERMINATION_BACKOFF_MS))).toEqual([1, 180, 360, 360, 360]);
  });

  it("treats a row never attempted as its first failure", () => {
    expect(after(0, REPLAY_BACKOFF_MS)).toBe(1);
  });

  it("records the authority's failure kind and cuts long messages at 500 characters", () => {
    expect(failureMessage(new AuthorityError("unavailable", "503 from the authority"))).toBe("unavailable: 503 from the authority");
    expect(failureMessage(new Error("x".repeat(600)))).toHaveLength(500);
    expect(failureMessage("socket hang up")).toBe("socket hang up");
  });
});
