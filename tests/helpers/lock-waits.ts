import type pg from "pg";
import { db } from "@/lib/db/client";

// Race tests hold a lock on a connection of their own and let the request under test run into it: these wait until it
// has (polling pg_stat_activity from outside the holder's transaction — within one, PostgreSQL answers from the snapshot
// it took at the first look), so the test releases the lock at a known point instead of after a guessed sleep.

const POLL_MS = 20;
const LIMIT_MS = 10_000;

async function until(waiting: () => Promise<number>, count: number, request: Promise<unknown> | undefined, what: string, endedIsFailure: boolean): Promise<void> {
  let ended = false;
  void request?.then(
    () => (ended = true),
    () => (ended = true),
  );
  const deadline = Date.now() + LIMIT_MS;
  for (;;) {
    if ((await waiting()) >= count) return;
    if (ended) {
      if (endedIsFailure) throw new Error(`${what} ended without waiting on the lock`);
      return;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not ${count} statement(s) waiting on a lock after ${LIMIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The pid of a test's own connection, to name it as the holder. */
export async function backendPid(client: pg.Client): Promise<number> {
  return (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
}

/** Waits until a statement waits on a lock the session `holderPid` holds: `request` has got as far as that lock (fails
 *  at once if it ends first). */
export function untilBlockedBy(holderPid: number, request: Promise<unknown>, what: string): Promise<void> {
  const waiting = async () =>
    (await db().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND ${holderPid}::int = ANY(pg_blocking_pids(pid))`)[0]!.n;
  return until(waiting, 1, request, what, true);
}

/** Waits until `count` statements of this database wait on a lock (behind the test's holder, or behind each other in a
 *  row's queue, where the holder is not among the blocking pids), or `request` has ended (its outcome then says why). */
export function untilLockWaiters(count: number, request?: Promise<unknown>): Promise<void> {
  const waiting = async () =>
    (await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)[0]!.n;
  return until(waiting, count, request, "the request", false);
}
