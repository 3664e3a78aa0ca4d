import type { Actor } from "@/lib/audit/audit-log";
import { db, type Tx } from "@/lib/db/client";
import { queryRows, sql } from "@/lib/db/sql";
import { log } from "@/lib/log";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { where, type Scope } from "@/lib/scope";
import { payrollAuthorityFor } from "./authority";
import { applyEndorsementActionIn } from "./endorsement-transition";
import { applyReservationActionIn } from "./reservations";
import { failureMessage, LEASE, nextAttemptAt, TERMINATION_BACKOFF_MS } from "./retry-policy";

// Ending an averbação. A payroll contract that closes (paid off, settled) or is withdrawn must be reported to the
// payroll authority, or the paying source keeps deducting installments nobody owes and the borrower's margin stays
// taken. The authority cannot be called inside the payment's transaction (it may be slow or down; the money must
// be recorded regardless), so that transaction only marks the endorsement `terminating` — the outbox pattern again —
// and a worker (`npm run worker`, or `npm run jobs -- endorsement-terminations`) calls the authority, idempotently
// (`Idempotency-Key` = the endorsement), retrying with backoff until it confirms; then the endorsement is
// `terminated` and its reservation `released` (the margin counts as free again), each with its audit row and event.

export type TerminationReason = "settled" | "canceled";

const WORKER: Actor = { type: "system", label: "endorsement worker" };

/** In the transaction that closes or withdraws a payroll contract: its endorsement becomes `terminating`. */
export async function requestTermination(tx: Tx, scope: Scope, actor: Actor, contract: { proposalId: string; terms: unknown }, reason: TerminationReason): Promise<void> {
  const product = (contract.terms as { product?: string } | null)?.product as ProductCode | undefined;
  if (!product || PRODUCTS[product]?.payrollLink == null) return;
  const endorsement = await tx.endorsement.findFirst({ where: { ...where(scope), proposalId: contract.proposalId, status: "endorsed" }, select: { id: true } });
  if (!endorsement) return;
  await applyEndorsementActionIn(tx, scope, actor, endorsement.id, "end", { terminationReason: reason, terminationNextAttemptAt: new Date() });
}

type Claimed = { id: string; tenant_id: string; environment: "sandbox" | "production"; authority_endorsement_id: string; termination_reason: TerminationReason; termination_attempts: number; reservation_id: string };

/** Claims due terminations (FOR UPDATE SKIP LOCKED, a lease), asks the authority, records the outcome. Returns how many were attempted. */
export async function runEndorsementTerminations(limit = 20, now: () => Date = () => new Date()): Promise<{ attempted: number; terminated: number }> {
  const claimed = await queryRows<Claimed>(sql`
    WITH due AS (
      SELECT id FROM endorsements WHERE status = 'terminating' AND termination_next_attempt_at <= now()
      ORDER BY termination_next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    UPDATE endorsements e
       SET termination_attempts = e.termination_attempts + 1, termination_next_attempt_at = now() + ${LEASE}::interval, updated_at = now()
      FROM due WHERE e.id = due.id
    RETURNING e.id, e.tenant_id, e.environment::text AS environment, e.authority_endorsement_id, e.termination_reason, e.termination_attempts, e.reservation_id`);
  let terminated = 0;
  for (const row of claimed) {
    const scope = { tenantId: row.tenant_id, environment: row.environment };
    try {
      await payrollAuthorityFor(row.environment).terminateEndorsement({ authorityEndorsementId: row.authority_endorsement_id, reason: row.termination_reason, requestId: `terminate:${row.id}` });
    } catch (err) {
      const message = failureMessage(err);
      await db().endorsement.updateMany({
        where: { id: row.id, status: "terminating" },
        data: { terminationLastError: message, terminationNextAttemptAt: nextAttemptAt(row.termination_attempts, now(), TERMINATION_BACKOFF_MS) },
      });
      log().warn({ endorsement_id: row.id, attempts: row.termination_attempts, err: message }, "ending an endorsement at the payroll authority failed; retrying later");
      continue;
    }
    await db().$transaction(async (tx) => {
      const current = await tx.endorsement.findFirst({ where: { id: row.id, ...where(scope) }, select: { status: true } });
      if (current?.status !== "terminating") return;
      await applyEndorsementActionIn(tx, scope, WORKER, row.id, "terminate", { terminatedAt: now(), terminationLastError: null, terminationNextAttemptAt: null });
      const reservation = await tx.marginReservation.findFirst({ where: { id: row.reservation_id, ...where(scope) }, select: { status: true } });
      if (reservation?.status === "consumed") await applyReservationActionIn(tx, scope, WORKER, row.reservation_id, "free");
      terminated += 1;
    });
  }
  return { attempted: claimed.length, terminated };
}
