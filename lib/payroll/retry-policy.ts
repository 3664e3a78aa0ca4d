import { AuthorityError } from "./authority/types";

// How the payroll workers (reservation recovery, averbação recovery, averbação termination) retry a call to the
// authority: each claims due rows with FOR UPDATE SKIP LOCKED and gives them a lease, so a worker that dies
// mid-call leaves its rows to another after the lease; a failed call waits on a backoff schedule.

/** How long a claimed row is held by its worker before another may take it over. */
export const LEASE = "2 minutes";

/** Waits after each failed replay: 1 min, 5 min, 15 min, 1 h, then every 3 h. */
export const REPLAY_BACKOFF_MS = [60_000, 300_000, 900_000, 3_600_000, 10_800_000] as const;

/** Waits after each failed termination: as a replay's, then every 6 h — never given up (the deduction must stop). */
export const TERMINATION_BACKOFF_MS = [...REPLAY_BACKOFF_MS, 21_600_000] as const;

/** When the next attempt is due after `attempts` (counted from 1) have failed: the schedule's last wait repeats. */
export function nextAttemptAt(attempts: number, now: Date, schedule: readonly number[]): Date {
  const wait = schedule[Math.min(Math.max(attempts, 1), schedule.length) - 1]!;
  return new Date(now.getTime() + wait);
}

/** A failure as the row's `last_error` records it (at most 500 characters). */
export function failureMessage(err: unknown): string {
  const message = err instanceof AuthorityError ? `${err.kind}: ${err.message}` : err instanceof Error ? err.message : String(err);
  return message.slice(0, 500);
}
