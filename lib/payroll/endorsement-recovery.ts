import type { Actor } from "@/lib/audit/audit-log";
import { db, sideDb, type Tx } from "@/lib/db/client";
import { queryRows, sql } from "@/lib/db/sql";
import { log } from "@/lib/log";
import { where, type Scope } from "@/lib/scope";
import { authorityTransactionOptions, payrollAuthorityFor } from "./authority";
import { AuthorityError, type EndorseInput, type EndorseResult, type PayrollAuthority } from "./authority/types";
import { endorseCall, settleEndorsement } from "./endorsement-outcome";
import { lockReservation } from "./reservations";
import { failureMessage, LEASE, nextAttemptAt, REPLAY_BACKOFF_MS } from "./retry-policy";

// Averbação calls written ahead. The averbação is asked for inside the transaction that records it, holding the
// proposal's lock; anything that ends that transaction without a commit after the call left — a timeout, a 5xx or an
// unreadable answer (after which the authority may well have endorsed), the process killed mid-request, the database
// lost before the commit — would leave a contract registered at the authority that nobody issues: if the proposal then
// closes, the paying source deducts installments from a benefit or salary for a loan that does not exist. So the
// endorsement row (`submitted`) is committed on its own before the call leaves, with the time after which its
// transaction must have ended (its timeout plus a minute). A retried request finds it and asks again under the same
// idempotency key (the authority answers what it did); so does the worker (`npm run worker`, `npm run jobs --
// endorsement-recoveries`) once that time has passed, and records the answer as the request would have — ending the
// averbação at once when the proposal closed meanwhile (./endorsement-outcome.ts). Retried with backoff until it knows.
//
// Only a real authority: the sandbox's simulator keeps no state (nothing is held there), so a sandbox endorsement is
// written in its transaction as before and a request that dies leaves nothing behind.

const WORKER: Actor = { type: "system", label: "endorsement worker" };

/** When a written-ahead call may be taken by the worker: past the end of the longest transaction that asks. */
function fence(): Date {
  return new Date(Date.now() + authorityTransactionOptions().timeout + 60_000);
}

type Submitted = { id: string; reservationId: string; contractNumber: string; proposalId: string } & Scope;

/**
 * Asks the authority for an averbação, its `submitted` row committed first (a new one; or `earlier`, a lost attempt's,
 * asked again under the same key), so that it is left for the worker if the caller's transaction, which records the
 * answer, never commits. The sandbox's simulator is asked directly, the row written in the caller's transaction.
 */
export async function endorseAtAuthority(tx: Tx, authority: PayrollAuthority, row: Submitted, earlier: boolean, call: EndorseInput): Promise<EndorseResult> {
  const data = { ...row, status: "submitted" };
  if (authority.name === "sandbox_simulator") {
    if (!earlier) await tx.endorsement.create({ data });
    return authority.endorse(call);
  }
  // Committed now, on the side pool: the caller's transaction holds a connection of the main one (lib/db/client.ts).
  if (earlier) await sideDb().endorsement.update({ where: { id: row.id }, data: { recoveryNextAttemptAt: fence() } });
  else await sideDb().endorsement.create({ data: { ...data, recoveryNextAttemptAt: fence() } });
  try {
    return await authority.endorse(call);
  } catch (err) {
    if (!earlier && err instanceof AuthorityError && !err.reached) {
      await sideDb().endorsement.delete({ where: { id: row.id } }); // never reached the authority: nothing to recover
    } else {
      log().warn({ endorsement_id: row.id, tenant_id: row.tenantId, err: err instanceof Error ? err.message : String(err) }, "an averbação call's outcome is unknown; left for the endorsement worker");
    }
    throw err;
  }
}

type Claimed = { id: string; tenant_id: string; environment: "sandbox" | "production"; proposal_id: string; reservation_id: string; contract_number: string; recovery_attempts: number };

/** Claims due written-ahead averbação calls (FOR UPDATE SKIP LOCKED, a lease), replays each and records the answer. */
export async function runEndorsementRecoveries(limit = 20, now: () => Date = () => new Date()): Promise<{ attempted: number; resolved: number }> {
  const claimed = await queryRows<Claimed>(sql`
    WITH due AS (
      SELECT id FROM endorsements WHERE status = 'submitted' AND recovery_next_attempt_at <= ${now()}
      ORDER BY recovery_next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    UPDATE endorsements e
       SET recovery_attempts = e.recovery_attempts + 1, recovery_next_attempt_at = ${now()}::timestamptz + ${LEASE}::interval, updated_at = now()
      FROM due WHERE e.id = due.id
    RETURNING e.id, e.tenant_id, e.environment::text AS environment, e.proposal_id, e.reservation_id, e.contract_number, e.recovery_attempts`);
  let resolved = 0;
  for (const row of claimed) {
    const scope: Scope = { tenantId: row.tenant_id, environment: row.environment };
    try {
      const proposal = await db().proposal.findFirstOrThrow({ where: { id: row.proposal_id, ...where(scope) }, select: { id: true, terms: true } });
      const reservation = await db().marginReservation.findFirstOrThrow({ where: { id: row.reservation_id, ...where(scope) } });
      const answer = await payrollAuthorityFor(row.environment).endorse(endorseCall(scope, proposal, reservation, row.contract_number));
      await db().$transaction(async (tx) => {
        const [locked] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM proposals WHERE id = ${row.proposal_id} AND tenant_id = ${row.tenant_id} FOR UPDATE`;
        const current = await tx.endorsement.findFirst({ where: { id: row.id, ...where(scope) }, select: { status: true } });
        if (current?.status !== "submitted") return; // a retried request recorded it meanwhile
        await settleEndorsement(tx, scope, WORKER, row.id, { id: row.proposal_id, status: locked!.status }, await lockReservation(tx, scope, row.reservation_id), answer);
      }, authorityTransactionOptions()); // a refusal releases the reservation at the authority: one more call
      resolved += 1;
    } catch (err) {
      const message = failureMessage(err);
      await db().endorsement.updateMany({
        where: { id: row.id, status: "submitted" },
        data: { recoveryLastError: message, recoveryNextAttemptAt: nextAttemptAt(row.recovery_attempts, now(), REPLAY_BACKOFF_MS) },
      });
      log().warn({ endorsement_id: row.id, attempts: row.recovery_attempts, err: message }, "recovering an averbação call failed; retrying later");
    }
  }
  return { attempted: claimed.length, resolved };
}
