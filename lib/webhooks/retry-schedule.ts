// When a failed delivery is tried again: the Standard Webhooks / Svix schedule stretched to about three days —
// after attempt 1 fails, 5 s; then 5 min, 30 min, 2 h, 5 h, and 10 h six times (≈ 67 h after the first
// attempt, 12 attempts in all) — each delay ±20% at random (jitter), so that an endpoint's backlog, or many
// endpoints failing together, do not come back in step. After the last attempt the delivery is `failed`.

const BASE_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, ...Array<number>(6).fill(10 * 3600_000)];

export const MAX_ATTEMPTS = BASE_DELAYS_MS.length + 1;
export const JITTER = 0.2;

/** When attempt `attemptsMade + 1` is due, after `attemptsMade` failed attempts, or null when none remains.
 *  `random` in [0, 1) (Math.random; tests pass a fixed one). */
export function nextAttemptAt(attemptsMade: number, failedAt: Date, random: () => number = Math.random): Date | null {
  const base = BASE_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) return null;
  const factor = 1 - JITTER + 2 * JITTER * random();
  return new Date(failedAt.getTime() + Math.round(base * factor));
}

/** The whole schedule without jitter, for the documentation: delay after each failed attempt. */
export const RETRY_DELAYS_MS: readonly number[] = BASE_DELAYS_MS;
