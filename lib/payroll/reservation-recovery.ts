import type { Prisma } from "@prisma/client";
import { rootDb, type Tx } from "@/lib/db/client";
import { queryRows, sql } from "@/lib/db/sql";
import { newId } from "@/lib/ids";
import { runPollLoop } from "@/lib/jobs/poll-loop";
import { log } from "@/lib/log";
import { where, type Scope } from "@/lib/scope";
import { authorityTransactionOptions, payrollAuthorityFor } from "./authority";
import { AuthorityError, type PayrollAuthority, type ReserveMarginInput, type ReserveMarginResult } from "./authority/types";
import { failureMessage, LEASE, nextAttemptAt, REPLAY_BACKOFF_MS } from "./retry-policy";

// Reservation calls whose outcome may be held at the payroll authority for nobody. A reservation is asked for inside
// the transaction that records it (the margin check and the row commit together), so anything that ends that
// transaction without a commit after the call left — a timeout, a 5xx or unreadable answer (after which the authority
// may well have reserved), a process killed mid-request, the database lost before the commit — would leave the
// authority holding the margin for days. The call is therefore written ahead, on its own and committed before it
// leaves (a row here with the call and its idempotency key, `pending`); the request's transaction marks it `recorded`
// when it stores the answer, so the mark commits with the reservation or not at all. A row still `pending` once that
// transaction must have ended (its timeout plus a minute) is the worker's (`npm run worker`,
// `npm run jobs -- reservation-recoveries`): it replays the call under that key — the authority answers what it did —
// and releases what it reserved, unless the reservation it names is ours after all; retried with backoff until it knows.
//
// A key recorded here is never used again for a new reservation: the next attempt for the same subject (a retried
// submission, a retried request) asks under the next key (`<base>:1`, `<base>:2` …), so the worker can release the
// old one without racing a retry that would adopt it.
//
// Only a real authority: the sandbox's simulator keeps no state, so there is nothing at it to release.


type Call = Omit<ReserveMarginInput, "requestId">;

/** The idempotency key for the next reservation call of a subject: its base key, or the next one past any recorded here. */
export async function reservationCallKey(tx: Tx, scope: Scope, baseKey: string): Promise<string> {
  const recorded = await tx.reservationRecovery.count({ where: { ...where(scope), baseKey } });
  return recorded === 0 ? baseKey : `${baseKey}:${recorded}`;
}

/** Asks the authority for a reservation, written ahead for the recovery worker; the answer's mark commits with `tx`. */
export async function reserveAtAuthority(tx: Tx, authority: PayrollAuthority, scope: Scope, baseKey: string, key: string, call: Call) {
  if (authority.name === "sandbox_simulator") return authority.reserveMargin({ ...call, requestId: key });
  const id = newId("reservationRecovery");
  await rootDb().reservationRecovery.create({
    data: { id, ...where(scope), baseKey, authorityKey: key, request: call as unknown as Prisma.InputJsonObject, nextAttemptAt: new Date(Date.now() + fenceMs()) },
  });
  let answer: ReserveMarginResult;
  try {
    answer = await authority.reserveMargin({ ...call, requestId: key });
  } catch (err) {
    if (err instanceof AuthorityError && !err.reached) {
      await rootDb().reservationRecovery.delete({ where: { id } }); // never reached the authority: the key stays unused
    } else {
      log().warn({ authority_key: key, tenant_id: scope.tenantId, err: err instanceof Error ? err.message : String(err) }, "a reservation call's outcome is unknown; left for the recovery worker");
    }
    throw err;
  }
  await tx.reservationRecovery.update({
    where: { id },
    data: answer.status === "reserved" ? { status: "recorded", authorityReservationId: answer.authorityReservationId } : { status: "refused" },
  });
  return answer;
}

/** How long a written-ahead call waits before the worker may take it: past the end of the longest transaction that asks. */
function fenceMs(): number {
  return authorityTransactionOptions().timeout + 60_000;
}

type Claimed = { id: string; tenant_id: string; environment: "sandbox" | "production"; authority_key: string; request: Call; attempts: number };

/** Claims due recoveries (FOR UPDATE SKIP LOCKED, a lease), replays each call and releases what it reserved. */
export async function runReservationRecoveries(limit = 20, now: () => Date = () => new Date()): Promise<{ attempted: number; resolved: number }> {
  const claimed = await queryRows<Claimed>(sql`
    WITH due AS (
      SELECT id FROM reservation_recoveries WHERE status = 'pending' AND next_attempt_at <= ${now()}
      ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    UPDATE reservation_recoveries r
       SET attempts = r.attempts + 1, next_attempt_at = ${now()}::timestamptz + ${LEASE}::interval, updated_at = now()
      FROM due WHERE r.id = due.id
    RETURNING r.id, r.tenant_id, r.environment::text AS environment, r.authority_key, r.request, r.attempts`);
  let resolved = 0;
  for (const row of claimed) {
    const authority = payrollAuthorityFor(row.environment);
    try {
      const answer = await authority.reserveMargin({ ...row.request, requestId: row.authority_key });
      let status: "refused" | "recorded" | "released" = "refused";
      if (answer.status === "reserved") {
        status = (await isOurs(row, answer.authorityReservationId)) ? "recorded" : "released";
        if (status === "released") await authority.releaseReservation({ authorityReservationId: answer.authorityReservationId, requestId: `${row.authority_key}:release` });
      }
      await rootDb().reservationRecovery.update({
        where: { id: row.id },
        data: { status, lastError: null, authorityReservationId: answer.status === "reserved" ? answer.authorityReservationId : null },
      });
      resolved += 1;
    } catch (err) {
      const message = failureMessage(err);
      await rootDb().reservationRecovery.update({ where: { id: row.id }, data: { lastError: message, nextAttemptAt: nextAttemptAt(row.attempts, now(), REPLAY_BACKOFF_MS) } });
      log().warn({ recovery_id: row.id, attempts: row.attempts, err: message }, "recovering a reservation call failed; retrying later");
    }
  }
  return { attempted: claimed.length, resolved };
}

/** A reservation this platform stored under that authority id (its transaction committed after all): never released here. */
async function isOurs(row: Claimed, authorityReservationId: string): Promise<boolean> {
  const found = await rootDb().marginReservation.findFirst({
    where: { tenantId: row.tenant_id, environment: row.environment, authorityReservationId },
    select: { id: true },
  });
  return found !== null;
}

/** Recovers reservation calls until `signal` aborts (inside `npm run worker`): straight on while some are due, else every 15 s. */
export async function runReservationRecoveryWorker(signal: AbortSignal, options: { idleMs?: number } = {}): Promise<void> {
  await runPollLoop(signal, {
    name: "reservation recovery worker",
    waiting: "reservation recoveries wait",
    idleMs: options.idleMs ?? 15_000,
    round: async () => (await runReservationRecoveries()).attempted > 0,
  });
}
