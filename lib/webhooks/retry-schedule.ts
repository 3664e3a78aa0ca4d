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

/** The schedule's longest step (10 h): the most a receiver's Retry-After may hold a delivery back. */
export const MAX_DELAY_MS = Math.max(...BASE_DELAYS_MS);

// Statuses whose Retry-After says when the receiver can take the event again (RFC 9110 §10.2.3): rate limited, or
// temporarily unavailable. Any other answer is retried on the schedule alone.
const RETRY_AFTER_STATUSES = new Set([429, 502, 503, 504]);

/** How long the receiver asked us to wait, from a 429 or 502/503/504's `Retry-After` (delay-seconds, or an
 *  HTTP-date judged against `now`); null for other answers or an unreadable header. */
export function retryAfterMs(statusCode: number | null, header: string | undefined, now: Date): number | null {
  if (statusCode === null || !RETRY_AFTER_STATUSES.has(statusCode) || header === undefined) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = /^[A-Za-z]{3}/.test(value) ? Date.parse(value) : Number.NaN; // an HTTP-date starts with its weekday ("-5" is no year)
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/** The next attempt honouring a Retry-After: the later of the schedule's time and the receiver's, the latter capped at
 *  the schedule's longest step (a receiver cannot park a delivery for days). No attempt left stays none. */
export function withRetryAfter(next: Date | null, failedAt: Date, waitMs: number | null): Date | null {
  if (next === null || waitMs === null) return next;
  return new Date(Math.max(next.getTime(), failedAt.getTime() + Math.min(waitMs, MAX_DELAY_MS)));
}

/** When the platform could not make an attempt at all (a sealed secret that no longer opens…): tried again after
 *  5 min ±20%, outside the receiver's schedule — nothing was sent, so no attempt is used up. */
export const PLATFORM_RETRY_MS = 5 * 60_000;

export function platformRetryAt(failedAt: Date, random: () => number = Math.random): Date {
  return new Date(failedAt.getTime() + Math.round(PLATFORM_RETRY_MS * (1 - JITTER + 2 * JITTER * random())));
}
