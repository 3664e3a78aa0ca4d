import { writeAudit, type Actor } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { invalidField } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { where, type Scope } from "@/lib/scope";
import { endpointDisabled } from "./deliveries";
import { checkCarried, find } from "./endpoints";
import { TEST_EVENT_TYPE } from "./event-catalog";
import { MAX_RECOVERED_DELIVERIES, type RecoverEndpointBody, type RecoveryResponse } from "./schemas";

// Recovering an endpoint's missed events (Svix's "recover", which Standard Webhooks receivers know): events of a
// window that it never received — it was disabled then (by hand, for a 410, after days of failures), or its
// deliveries ran out of attempts while the receiver was down — are queued to it again, oldest first. Events it
// received, or still has pending, are left alone, so a recovery repeated over the same window queues nothing twice.
// The window reaches back at most WEBHOOK_RETENTION_DAYS: older deliveries are purged (lib/webhooks/retention.ts), and
// without them what the endpoint received can no longer be told.

type Candidate = { event_id: string; type: string; created_at: Date; delivery_id: string | null };

/** `permissions`: a /v1 credential's — sending an endpoint its events is reading them, so it must be able to read every
 *  type the endpoint carries (as for a new URL or secret); the panel's owners and admins pass none. */
export async function recoverEndpoint(scope: Scope, actor: Actor, endpointId: string, body: RecoverEndpointBody, permissions?: readonly string[]): Promise<RecoveryResponse> {
  const now = new Date();
  const days = getEnv().WEBHOOK_RETENTION_DAYS;
  const requested = new Date(body.since);
  const until = body.until === undefined ? now : new Date(body.until);
  if (until > now) throw invalidField("until", "Must not be in the future");
  if (requested.getTime() < now.getTime() - days * 86_400_000) {
    throw invalidField("since", `Must be within the last ${days} days: older deliveries are no longer kept, so what the endpoint received cannot be told`);
  }
  if (requested >= until) throw invalidField("since", "Must be before until (default now)");
  return db().$transaction(async (tx) => {
    // The endpoint's row lock orders this against a disable, a narrowing or another recovery of it.
    const endpoint = await find(tx, scope, endpointId, { lock: true });
    if (permissions) checkCarried(permissions, endpoint);
    if (!endpoint.enabled) throw endpointDisabled(endpointId);
    const since = endpoint.createdAt > requested ? endpoint.createdAt : requested;
    const types = endpoint.eventTypes; // empty: every type
    // Published events only: the dispatcher fans out the rest itself. A failed delivery whose attempt is still leased
    // (its worker recording) is left to that worker.
    const candidates =
      since < until
        ? await tx.$queryRaw<Candidate[]>`
            SELECT o.id AS event_id, o.type, o.created_at, d.id AS delivery_id
              FROM outbox_events o
              -- One (endpoint_id, event_id) probe per event, whatever the statistics say: as a plain join, after a burst
              -- of new events (estimated at one row) the planner scanned all the endpoint's deliveries for every event
              -- (1,001 events and 1,000 deliveries: a million index rows). OFFSET 0 keeps the lateral subquery from
              -- being flattened back into that join.
              LEFT JOIN LATERAL (SELECT id, status, locked_until FROM webhook_deliveries
                                  WHERE endpoint_id = ${endpoint.id} AND event_id = o.id OFFSET 0) d ON true
             WHERE o.tenant_id = ${scope.tenantId} AND o.environment = ${scope.environment}::"Environment"
               AND o.created_at >= ${since} AND o.created_at < ${until}
               AND o.published_at IS NOT NULL AND o.type <> ${TEST_EVENT_TYPE}
               AND (cardinality(${types}::text[]) = 0 OR o.type = ANY(${types}::text[]))
               AND (d.id IS NULL OR (d.status = 'failed' AND (d.locked_until IS NULL OR d.locked_until < now())))
             ORDER BY o.created_at, o.id
             LIMIT ${MAX_RECOVERED_DELIVERIES + 1}`
        : [];
    const taken = candidates.slice(0, MAX_RECOVERED_DELIVERIES);
    const fresh = taken.filter((c) => c.delivery_id === null);
    const failed = taken.flatMap((c) => (c.delivery_id === null ? [] : [c.delivery_id]));
    if (fresh.length > 0) {
      // Ids in the events' order: the worker claims deliveries due at the same instant by id.
      await tx.webhookDelivery.createMany({
        data: fresh.map((c) => ({ id: newId("webhookDelivery"), ...where(scope), endpointId, eventId: c.event_id, eventType: c.type, status: "pending", nextAttemptAt: now })),
      });
    }
    if (failed.length > 0) {
      // Each with the whole retry schedule again, counted from the attempts it had made (retry_base).
      await tx.$executeRaw`
        UPDATE webhook_deliveries
           SET status = 'pending', next_attempt_at = ${now}, completed_at = NULL, locked_until = NULL, retry_base = attempt_count, updated_at = now()
         WHERE id = ANY(${failed}::text[]) AND status = 'failed'`;
    }
    const result: RecoveryResponse = {
      object: "webhook_recovery",
      endpoint_id: endpointId,
      since: since.toISOString(),
      until: until.toISOString(),
      deliveries_created: fresh.length,
      deliveries_resent: failed.length,
      has_more: candidates.length > MAX_RECOVERED_DELIVERIES,
      // Where the next call may start: the last event queued (inclusive — it and any sharing its instant are skipped
      // then, having a delivery now). The same window works too, but reads again every event this call went through.
      next_since: candidates.length > MAX_RECOVERED_DELIVERIES ? taken.at(-1)!.created_at.toISOString() : null,
    };
    const metadata = { since: result.since, until: result.until, deliveries_created: result.deliveries_created, deliveries_resent: result.deliveries_resent, has_more: result.has_more };
    await writeAudit(tx, { ...where(scope), actor, action: "webhook_endpoint.recovered", target: { type: "webhook_endpoint", id: endpointId }, metadata });
    return result;
  });
}
