import { Prisma, type WebhookAttempt, type WebhookDelivery } from "@prisma/client";
import { writeAudit, type Actor } from "@/lib/audit/audit-log";
import { db, type Tx } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { DomainError, notFound, TransientConflict } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import { checkEventReadable, readableEventTypes } from "./event-access";
import { TEST_EVENT_TYPE } from "./event-catalog";
import type { DeliveryResponse, DeliveryStatus, ListDeliveriesQuery } from "./schemas";

// Deliveries as the API shows them, and the changes people ask for: a test event to one endpoint, and a
// resend. The workers (worker.ts) make the attempts.

export const DISABLED = "The endpoint was disabled";
export const UNSUBSCRIBED = "The endpoint no longer subscribes to this event type";
export const LOST_ATTEMPT = "The worker stopped during this attempt: its outcome is unknown";

/** 409 for sending anything to a disabled endpoint (a resend, a test event, a recovery). */
export const endpointDisabled = (endpointId: string) => new DomainError("conflict", "The endpoint is disabled: enable it first", { endpoint_id: endpointId });

/** `permissions`: the caller's (a /v1 credential's); deliveries of events it may not read are left out — their
 *  bodies carry the event (lib/webhooks/event-access.ts). The panel's owners and admins see all (undefined).
 *  Deliveries of a deleted endpoint are left out too (its log went with it; the purger removes it in the background). */
export async function listDeliveries(scope: Scope, query: ListDeliveriesQuery, permissions?: readonly string[]) {
  const after = decodeCursor(scope, query.cursor, "webhookDelivery");
  // The few deleted endpoints awaiting the purger, by their partial index — not a join in the page query, whose plan
  // must stay one seek on the deliveries' own index (tests/platform/list-filter-indexes.test.ts).
  const deleted = (await db().webhookEndpoint.findMany({ where: { ...where(scope), deletedAt: { not: null } }, select: { id: true } })).map((e) => e.id);
  const endpointId: Prisma.StringFilter = { ...(query.endpoint_id ? { equals: query.endpoint_id } : {}), ...(deleted.length > 0 ? { notIn: deleted } : {}) };
  const filters: Prisma.WebhookDeliveryWhereInput = {
    ...where(scope),
    ...(permissions ? { eventType: { in: readableEventTypes(permissions) } } : {}),
    ...(Object.keys(endpointId).length > 0 ? { endpointId } : {}),
    ...(query.event_id ? { eventId: query.event_id } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  const page = await paginate(query.limit, (args) => db().webhookDelivery.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, (row) => toDeliveryResponse(row));
}

export async function getDelivery(scope: Scope, id: string, permissions?: readonly string[]): Promise<DeliveryResponse> {
  const row = await db().webhookDelivery.findFirst({ where: { id, ...where(scope), endpoint: { deletedAt: null } }, include: { attempts: { orderBy: { number: "asc" } } } });
  if (!row) throw notFound("Webhook delivery");
  if (permissions) checkEventReadable(permissions, row.eventType);
  return toDeliveryResponse(row, row.attempts);
}

/** Sends a delivery again now: a failed or succeeded one becomes pending with its next attempt due at once
 *  (its attempts so far stay in the log); a pending one is moved up. Not while an attempt is in flight.
 *  A lapsed lease is cleared, and its attempt logged as lost (as a claim taking it over would): the worker that held
 *  it may only be stalled, and its late record — fenced on the lease (lib/webhooks/worker.ts) — must not overwrite
 *  the resend. */
export async function resendDelivery(scope: Scope, actor: Actor, id: string, permissions?: readonly string[]): Promise<DeliveryResponse> {
  return db().$transaction(async (tx) => {
    // The lease was set by the database's clock: judged by it too (an app server whose clock ran ahead cleared a live
    // lease, and the attempt in flight was recorded as lost and sent again).
    const [lease] = await tx.$queryRaw<{ in_flight: boolean }[]>`
      SELECT locked_until IS NOT NULL AND locked_until > now() AS in_flight FROM webhook_deliveries WHERE id = ${id} AND tenant_id = ${scope.tenantId} FOR UPDATE`;
    const row = await tx.webhookDelivery.findFirst({ where: { id, ...where(scope) }, include: { endpoint: true } });
    if (!row || !lease || row.endpoint.deletedAt) throw notFound("Webhook delivery"); // a deleted endpoint's log is gone
    if (permissions) checkEventReadable(permissions, row.eventType); // sending an event is reading it
    if (!row.endpoint.enabled) throw endpointDisabled(row.endpointId);
    if (lease.in_flight) throw new TransientConflict("An attempt of this delivery is in flight; try again in a few seconds");
    if (row.lockedUntil) {
      await tx.webhookAttempt.createMany({
        data: [{ id: newId("webhookAttempt"), deliveryId: id, number: row.attemptCount, url: row.endpoint.url, startedAt: new Date(), durationMs: 0, error: LOST_ATTEMPT, requestBody: "" }],
        skipDuplicates: true,
      });
    }
    // The whole retry schedule again, counted from the attempts made so far (retryBase).
    const updated = await tx.webhookDelivery.update({ where: { id }, data: { status: "pending", nextAttemptAt: new Date(), completedAt: null, lockedUntil: null, retryBase: row.attemptCount } });
    await writeAudit(tx, { ...where(scope), actor, action: "webhook_delivery.resent", target: { type: "webhook_delivery", id }, metadata: { previous_status: row.status } });
    return toDeliveryResponse(updated);
  });
}

/** A `webhook_endpoint.test` event, delivered to this endpoint only (written as already published: the
 *  dispatcher never fans it out). */
export async function sendTestEvent(scope: Scope, actor: Actor, endpointId: string): Promise<DeliveryResponse> {
  return db().$transaction(async (tx) => {
    const endpoint = await tx.webhookEndpoint.findFirst({ where: { id: endpointId, ...where(scope), deletedAt: null } });
    if (!endpoint) throw notFound("Webhook endpoint");
    if (!endpoint.enabled) throw endpointDisabled(endpointId);
    const now = new Date();
    const eventId = newId("event");
    const data = { webhook_endpoint_id: endpointId, message: "A test event from the Credit Platform: if you can read this, your endpoint works." };
    await tx.outboxEvent.create({ data: { id: eventId, ...where(scope), type: TEST_EVENT_TYPE, payload: data, createdAt: now, publishedAt: now } });
    const row = await tx.webhookDelivery.create({
      data: { id: newId("webhookDelivery"), ...where(scope), endpointId, eventId, eventType: TEST_EVENT_TYPE, status: "pending", nextAttemptAt: now },
    });
    await writeAudit(tx, { ...where(scope), actor, action: "webhook_endpoint.tested", target: { type: "webhook_endpoint", id: endpointId }, metadata: { event_id: eventId } });
    return toDeliveryResponse(row);
  });
}

/** Ends an endpoint's queued deliveries as failed (all of them, or those of types not in `keep`). One whose attempt is
 *  in flight (leased) is left to its worker: failing it here would make the worker's record a no-op (it records only
 *  while pending), and an attempt the receiver took would show `failed`. The worker ends it once recorded, or at its
 *  next claim, when it finds the endpoint disabled or no longer carrying its type (lib/webhooks/worker.ts). */
export async function failPendingDeliveries(tx: Tx, endpointId: string, reason: string, keep?: readonly string[]): Promise<void> {
  const kept = keep ? Prisma.sql`AND event_type <> ALL(${[...keep]}::text[])` : Prisma.empty;
  await tx.$executeRaw`
    UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = ${reason}, completed_at = now(), updated_at = now()
     WHERE id IN (SELECT id FROM webhook_deliveries
                   WHERE endpoint_id = ${endpointId} AND status = 'pending' AND (locked_until IS NULL OR locked_until < now()) ${kept}
                   ORDER BY next_attempt_at, id LIMIT ${FAIL_PENDING_BATCH})`;
}

/**
 * At most this many queued deliveries are ended in the transaction of the change that ends them (an endpoint disabled
 * or narrowed): an endpoint down for days can have hundreds of thousands queued, and ending them all at once would hold
 * the change past its statement timeout (lib/db/client.ts) — the disable would fail every time. The rest stay queued
 * until their turn, when the worker finds their endpoint disabled or no longer subscribed and ends them unsent
 * (worker.ts `attempt`).
 */
export const FAIL_PENDING_BATCH = 10_000;

export function toDeliveryResponse(row: WebhookDelivery, attempts?: WebhookAttempt[]): DeliveryResponse {
  return {
    id: row.id,
    object: "webhook_delivery",
    endpoint_id: row.endpointId,
    event_id: row.eventId,
    event_type: row.eventType,
    status: row.status as DeliveryStatus,
    attempt_count: row.attemptCount,
    next_attempt_at: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    last_status_code: row.lastStatusCode,
    last_duration_ms: row.lastDurationMs,
    last_error: row.lastError,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    completed_at: row.completedAt?.toISOString() ?? null,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    ...(attempts
      ? {
          attempts: attempts.map((a) => ({
            number: a.number,
            url: a.url,
            started_at: a.startedAt.toISOString(),
            duration_ms: a.durationMs,
            status_code: a.statusCode,
            error: a.error,
            request_body: a.requestBody,
            response_body: a.responseBody,
          })),
        }
      : {}),
  };
}
