import type { Prisma } from "@prisma/client";
import { isDeepStrictEqual } from "node:util";
import { rootDb, sideDb, type Tx } from "@/lib/db/client";
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
// A key recorded here is never used for a different call. A retry of the same reservation (a resubmission, the same
// request again) whose earlier call is still pending asks again under that call's key: the authority answers what it
// did, so a reservation it made for the lost answer becomes this one's — asked under a new key while the first held
// the margin, it would be refused for want of margin, and a proposal sized to its margin rejected for good. The retry
// takes the row over under its lock, moving the worker's turn past its own transaction; while the worker is replaying
// it (`claimed_at`), the retry is a 503 to try again after a moment. Once the row is resolved (released, recorded,
// refused), the next attempt asks under the next key (`<base>:1`, `<base>:2` …).
//
// Only a real authority: the sandbox's simulator keeps no state, so there is nothing at it to release.


type Call = Omit<ReserveMarginInput, "requestId">;

/** Seconds a retry is told to wait while the worker replays the earlier call (a replay takes one call's budget). */
const BUSY_RETRY_AFTER_SECONDS = 30;

/** Asks the authority for a reservation, written ahead for the recovery worker; the answer's mark commits with `tx`. */
export async function reserveAtAuthority(tx: Tx, authority: PayrollAuthority, scope: Scope, baseKey: string, call: Call) {
  if (authority.name === "sandbox_simulator") return authority.reserveMargin({ ...call, requestId: baseKey });
  const earlier = await takeOverPendingCall(tx, scope, baseKey, call);
  let id: string;
  let key: string;
  if (earlier) {
    ({ id, authorityKey: key } = earlier);
  } else {
    const recorded = await tx.reservationRecovery.count({ where: { ...where(scope), baseKey } });
    key = recorded === 0 ? baseKey : `${baseKey}:${recorded}`;
    id = newId("reservationRecovery");
    await sideDb().reservationRecovery.create({
      data: { id, ...where(scope), baseKey, authorityKey: key, request: call as unknown as Prisma.InputJsonObject, nextAttemptAt: new Date(Date.now() + fenceMs()) },
    });
  }
  let answer: ReserveMarginResult;
  try {
    answer = await authority.reserveMargin({ ...call, requestId: key });
  } catch (err) {
    if (err instanceof AuthorityError && !err.reached && !earlier) {
      await sideDb().reservationRecovery.delete({ where: { id } }); // never reached the authority: the key stays unused
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

/**
 * The subject's call still pending with these same terms, taken over for this transaction: locked, and its turn at
 * the worker moved past this transaction's end (undone with it if it fails: the worker then has it as before). Null
 * when there is none (a call with other terms — another margin query — is left to the worker). A 503 while the
 * worker has it in hand.
 */
async function takeOverPendingCall(tx: Tx, scope: Scope, baseKey: string, call: Call): Promise<{ id: string; authorityKey: string } | null> {
  const pending = await tx.reservationRecovery.findMany({ where: { ...where(scope), baseKey, status: "pending" }, orderBy: { createdAt: "desc" } });
  const terms = JSON.parse(JSON.stringify(call)) as unknown; // as stored: without undefined members
  const same = pending.find((row) => isDeepStrictEqual(row.request, terms));
  if (!same) return null;
  // The row first, without waiting: the worker holds it while it replays (recoverClaimed), and this request, holding the
  // proposal's and the customer's locks, must not queue behind a call to the authority.
  const free = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM reservation_recoveries WHERE id = ${same.id} FOR UPDATE SKIP LOCKED`;
  const taken =
    free.length === 0
      ? []
      : await tx.$queryRaw<{ id: string }[]>`
    UPDATE reservation_recoveries SET next_attempt_at = ${new Date(Date.now() + fenceMs())}, updated_at = now()
     WHERE id = ${same.id} AND status = 'pending' AND (claimed_at IS NULL OR claimed_at < now() - ${LEASE}::interval)
    RETURNING id`;
  if (taken.length === 0) {
    throw new AuthorityError("unavailable", "An earlier attempt of this reservation is being settled with the payroll authority; retry shortly", BUSY_RETRY_AFTER_SECONDS, false);
  }
  return { id: same.id, authorityKey: same.authorityKey };
}

/** How long a written-ahead call waits before the worker may take it: past the end of the longest transaction that asks. */
function fenceMs(): number {
  return authorityTransactionOptions().timeout + 60_000;
}

type Claimed = { id: string; tenant_id: string; environment: "sandbox" | "production"; authority_key: string; request: Call; attempts: number; claimed_at: Date };

/** Claims due recoveries (FOR UPDATE SKIP LOCKED, a lease), replays each call and releases what it reserved. */
export async function runReservationRecoveries(limit = 20, now: () => Date = () => new Date()): Promise<{ attempted: number; resolved: number }> {
  const claimed = await claimReservationRecoveries(limit, now);
  let resolved = 0;
  for (const row of claimed) if ((await recoverClaimed(row, now)) === "resolved") resolved += 1;
  return { attempted: claimed.length, resolved };
}

/** Claims up to `limit` due recoveries for this worker: a lease (`next_attempt_at`) and its claim time (`claimed_at`). */
export async function claimReservationRecoveries(limit: number, now: () => Date = () => new Date()): Promise<Claimed[]> {
  return queryRows<Claimed>(sql`
    WITH due AS (
      SELECT id FROM reservation_recoveries WHERE status = 'pending' AND next_attempt_at <= ${now()}
      ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    UPDATE reservation_recoveries r
       SET attempts = r.attempts + 1, next_attempt_at = ${now()}::timestamptz + ${LEASE}::interval, claimed_at = ${now()}, updated_at = now()
      FROM due WHERE r.id = due.id
    RETURNING r.id, r.tenant_id, r.environment::text AS environment, r.authority_key, r.request, r.attempts, r.claimed_at`);
}

/**
 * Replays one claimed call and settles it — holding its row's lock from the check to the status written. A claim
 * alone did not keep a retry out: rows late in a batch were replayed after their lease had run out, when a retry
 * (./reservation-recovery.ts takeOverPendingCall) could take the row over and record the very reservation this
 * replay then found not ours yet (uncommitted) and released at the authority. Now a row a retry holds, or that is no
 * longer pending under this claim (settled by a retry, claimed again by another worker), is skipped; and a retry that
 * comes while the replay holds the row does not wait for it: it answers 503, try again shortly (takeOverPendingCall).
 */
export async function recoverClaimed(row: Claimed, now: () => Date = () => new Date()): Promise<"resolved" | "skipped" | "failed"> {
  const authority = payrollAuthorityFor(row.environment);
  try {
    return await rootDb().$transaction(async (tx) => {
      const [held] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM reservation_recoveries WHERE id = ${row.id} AND status = 'pending' AND claimed_at = ${row.claimed_at}
        FOR UPDATE SKIP LOCKED`;
      if (!held) return "skipped";
      const answer = await authority.reserveMargin({ ...row.request, requestId: row.authority_key });
      let status: "refused" | "recorded" | "released" = "refused";
      if (answer.status === "reserved") {
        status = (await isOurs(tx, row, answer.authorityReservationId)) ? "recorded" : "released";
        if (status === "released") await authority.releaseReservation({ authorityReservationId: answer.authorityReservationId, requestId: `${row.authority_key}:release` });
      }
      await tx.reservationRecovery.update({
        where: { id: row.id },
        data: { status, lastError: null, claimedAt: null, authorityReservationId: answer.status === "reserved" ? answer.authorityReservationId : null },
      });
      return "resolved";
    }, twoCallsTransactionOptions()); // a replay and, when not ours, a release: two calls' budget
  } catch (err) {
    const message = failureMessage(err);
    // Only while it is still this claim's (the row lock went with the rollback).
    await rootDb().reservationRecovery.updateMany({
      where: { id: row.id, status: "pending", claimedAt: row.claimed_at },
      data: { lastError: message, claimedAt: null, nextAttemptAt: nextAttemptAt(row.attempts, now(), REPLAY_BACKOFF_MS) },
    });
    log().warn({ recovery_id: row.id, attempts: row.attempts, err: message }, "recovering a reservation call failed; retrying later");
    return "failed";
  }
}

function twoCallsTransactionOptions(): { maxWait: number; timeout: number } {
  const one = authorityTransactionOptions();
  return { maxWait: one.maxWait, timeout: one.timeout * 2 };
}

/** A reservation this platform stored under that authority id (its transaction committed after all): never released here. */
async function isOurs(tx: Tx, row: Claimed, authorityReservationId: string): Promise<boolean> {
  const found = await tx.marginReservation.findFirst({
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
