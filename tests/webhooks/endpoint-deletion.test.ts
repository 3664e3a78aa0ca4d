import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createRoute, GET as listRoute } from "@/app/v1/webhook-endpoints/route";
import { GET as getRoute, PATCH as patchRoute, DELETE as deleteRoute } from "@/app/v1/webhook-endpoints/[id]/route";
import { POST as rotateRoute } from "@/app/v1/webhook-endpoints/[id]/rotate-secret/route";
import { POST as testRoute } from "@/app/v1/webhook-endpoints/[id]/test/route";
import { POST as recoverRoute } from "@/app/v1/webhook-endpoints/[id]/recover/route";
import { GET as listDeliveriesRoute } from "@/app/v1/webhook-deliveries/route";
import { GET as getDeliveryRoute } from "@/app/v1/webhook-deliveries/[id]/route";
import { POST as resendRoute } from "@/app/v1/webhook-deliveries/[id]/resend/route";
import { POST as createCustomerRoute } from "@/app/v1/customers/route";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { purgeDeletedEndpoints } from "@/lib/webhooks/retention";
import { MAX_ENDPOINTS_PER_ENVIRONMENT } from "@/lib/webhooks/schemas";
import { uniqueCpf } from "../credit/flow-helpers";
import { newKey, newTenant } from "../helpers/factory";
import { bearer, call } from "../helpers/http";
import { drainWebhooks } from "../helpers/webhook-drain";
import { startReceiver } from "../helpers/webhook-receiver";

// Deleting an endpoint must not depend on the size of its delivery log: one statement cascading to up to 90 days of
// deliveries and attempts outlasted the statement timeout for a busy, long-failing endpoint, which then could never be
// deleted (503 every time). The request marks it deleted — from then on it is gone for every API, list, worker claim
// and fan-out — and the retention purger removes its log in batches, then the endpoint itself.

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
let receiver: Receiver;
let locker: pg.Client;
beforeAll(async () => {
  receiver = await startReceiver();
  locker = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await locker.connect();
  await drainWebhooks();
});
afterAll(async () => {
  await locker.end();
  await receiver.close();
});

async function tenant() {
  const { tenant } = await newTenant();
  const { key } = await newKey(tenant.id, "sandbox", ["read", "write"]);
  return { tenant, headers: bearer(key, tenant.id) };
}
type T = Awaited<ReturnType<typeof tenant>>;

async function endpoint(t: T, path: string) {
  const res = await call(createRoute, { path: "/v1/webhook-endpoints", headers: t.headers, json: { url: receiver.url(path), event_types: ["*"] } });
  expect(res.status).toBe(201);
  return res.body as { id: string; url: string };
}

const one = (handler: Parameters<typeof call>[0], t: T, id: string, extra: { json?: unknown; suffix?: string } = {}) =>
  call(handler, { path: `/v1/webhook-endpoints/${id}${extra.suffix ?? ""}`, headers: t.headers, params: { id }, json: extra.json });

/** `n` published events of the tenant, each with a delivery to the endpoint (a third pending and due, a third failed, a
 *  third succeeded), each delivery with two attempts — a log like a busy endpoint's. Returns the delivery ids. */
async function seedLog(t: T, endpointId: string, n: number): Promise<string[]> {
  const events = Array.from({ length: n }, () => newId("event"));
  const deliveries = Array.from({ length: n }, () => newId("webhookDelivery"));
  const attempts = Array.from({ length: 2 * n }, () => newId("webhookAttempt"));
  await db().$executeRaw`
    INSERT INTO outbox_events (id, tenant_id, environment, type, payload, created_at, published_at)
    SELECT id, ${t.tenant.id}, 'sandbox', 'customer.updated', '{}'::jsonb, now() - interval '1 hour', now() FROM unnest(${events}::text[]) AS id`;
  await db().$executeRaw`
    INSERT INTO webhook_deliveries (id, tenant_id, environment, endpoint_id, event_id, event_type, status, attempt_count, next_attempt_at, completed_at, created_at, updated_at)
    SELECT d.id, ${t.tenant.id}, 'sandbox', ${endpointId}, d.event_id, 'customer.updated', (ARRAY['pending', 'failed', 'succeeded'])[d.g % 3 + 1], 2,
           CASE WHEN d.g % 3 = 0 THEN now() - interval '1 minute' END, CASE WHEN d.g % 3 <> 0 THEN now() END, now(), now()
      FROM unnest(${deliveries}::text[], ${events}::text[]) WITH ORDINALITY AS d(id, event_id, g)`;
  await db().$executeRaw`
    INSERT INTO webhook_attempts (id, delivery_id, number, url, started_at, duration_ms, status_code, request_body)
    SELECT a.id, (${deliveries}::text[])[(a.g + 1) / 2], 2 - a.g % 2, 'http://127.0.0.1/x', now(), 5, 500, '{}'
      FROM unnest(${attempts}::text[]) WITH ORDINALITY AS a(id, g)`;
  return deliveries;
}

const deliveriesOf = (endpointId: string) => db().webhookDelivery.count({ where: { endpointId } });
const attemptsOf = (endpointId: string) => db().webhookAttempt.count({ where: { delivery: { endpointId } } });

describe("deleting a webhook endpoint", () => {
  it("answers without touching its delivery log: the endpoint is gone at once, the purger removes the log in batches and then it", async () => {
    const t = await tenant();
    const doomed = await endpoint(t, `/doomed-${t.tenant.id}`);
    const kept = await endpoint(t, `/kept-${t.tenant.id}`);
    const log = await seedLog(t, doomed.id, 30);
    const keptLog = await seedLog(t, kept.id, 3);

    // One of its deliveries is locked meanwhile (a worker recording an attempt, a purge): the request must not wait
    // for it — it does not touch the log at all.
    await locker.query("BEGIN");
    await locker.query("SELECT id FROM webhook_deliveries WHERE id = $1 FOR UPDATE", [log[0]]);
    const deleting = one(deleteRoute, t, doomed.id);
    let deleted: Awaited<typeof deleting> | "still waiting";
    try {
      deleted = await Promise.race([deleting, new Promise<"still waiting">((resolve) => setTimeout(() => resolve("still waiting"), 5_000))]);
    } finally {
      await locker.query("ROLLBACK");
      await deleting.catch(() => undefined);
    }
    expect(deleted).not.toBe("still waiting");
    expect(deleted).toMatchObject({ status: 200, body: { id: doomed.id, object: "webhook_endpoint", deleted: true } });
    // Its log is still there, untouched: the purger's work, not the request's.
    expect(await deliveriesOf(doomed.id)).toBe(30);
    expect(await attemptsOf(doomed.id)).toBe(60);

    // Gone for every API, as a deleted endpoint was: 404, left out of lists, its deliveries too.
    for (const [handler, extra] of [
      [getRoute, {}],
      [patchRoute, { json: { description: "x" } }],
      [patchRoute, { json: { enabled: true } }],
      [deleteRoute, {}],
      [rotateRoute, { suffix: "/rotate-secret", json: {} }],
      [testRoute, { suffix: "/test" }],
      [recoverRoute, { suffix: "/recover", json: { since: new Date(Date.now() - 86_400_000).toISOString() } }],
    ] as const) {
      const res = await one(handler, t, doomed.id, extra);
      expect(res.status, `${handler.operation.method} ${JSON.stringify(extra)}`).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
    expect((await call(listRoute, { path: "/v1/webhook-endpoints", headers: t.headers })).body.data.map((e: { id: string }) => e.id)).toEqual([kept.id]);
    expect((await call(listDeliveriesRoute, { path: `/v1/webhook-deliveries?endpoint_id=${doomed.id}`, headers: t.headers })).body.data).toEqual([]);
    const all = await call(listDeliveriesRoute, { path: "/v1/webhook-deliveries?limit=100", headers: t.headers });
    expect(all.body.data.map((d: { id: string }) => d.id).sort()).toEqual([...keptLog].sort());
    for (const id of [log[0]!, log[1]!, log[2]!]) {
      expect((await call(getDeliveryRoute, { path: `/v1/webhook-deliveries/${id}`, headers: t.headers, params: { id } })).status).toBe(404);
      expect((await call(resendRoute, { path: `/v1/webhook-deliveries/${id}/resend`, headers: t.headers, params: { id } })).status).toBe(404);
    }

    // The workers neither claim its queued deliveries nor fan new events out to it; the other endpoint gets both.
    const customer = await call(createCustomerRoute, { path: "/v1/customers", headers: t.headers, json: { document: uniqueCpf(), name: "Ana Souza" } });
    expect(customer.status).toBe(201);
    await drainWebhooks();
    expect(receiver.received.filter((r) => r.path === `/doomed-${t.tenant.id}`)).toEqual([]);
    expect(receiver.received.filter((r) => r.path === `/kept-${t.tenant.id}`).length).toBe(2); // its one due delivery, and the new event
    expect(await db().webhookDelivery.count({ where: { endpointId: doomed.id, attemptCount: { not: 2 } } })).toBe(0);
    expect(await deliveriesOf(doomed.id)).toBe(30);

    // It no longer counts toward the environment's cap.
    const more = await Promise.all(Array.from({ length: MAX_ENDPOINTS_PER_ENVIRONMENT - 1 }, (_, i) => endpoint(t, `/more-${i}`)));
    expect(more).toHaveLength(MAX_ENDPOINTS_PER_ENVIRONMENT - 1);
    expect((await call(createRoute, { path: "/v1/webhook-endpoints", headers: t.headers, json: { url: receiver.url("/one-too-many"), event_types: ["*"] } })).status).toBe(409);

    // The purger: a bounded batch of deliveries (with their attempts) a round, the endpoint once nothing refers to it.
    const BATCH = 12;
    let rounds = 0;
    while (await db().webhookEndpoint.findUnique({ where: { id: doomed.id } })) {
      const before = await deliveriesOf(doomed.id);
      const purged = await purgeDeletedEndpoints(BATCH);
      expect(purged.deliveries).toBeLessThanOrEqual(BATCH);
      expect(before - (await deliveriesOf(doomed.id))).toBeLessThanOrEqual(BATCH);
      rounds += 1;
      expect(rounds).toBeLessThanOrEqual(10);
    }
    expect(rounds).toBeGreaterThanOrEqual(3); // 30 deliveries, 12 a round
    expect(await deliveriesOf(doomed.id)).toBe(0);
    expect(await db().webhookAttempt.count({ where: { deliveryId: { in: log } } })).toBe(0);
    // The other endpoint's log and every event stay; the deletion stays on record.
    expect(await db().webhookDelivery.count({ where: { id: { in: keptLog } } })).toBe(3);
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "customer.updated" } })).toBe(33);
    expect(await db().auditLog.count({ where: { targetId: doomed.id, action: "webhook_endpoint.deleted" } })).toBe(1);
    expect((await one(getRoute, t, doomed.id)).status).toBe(404);
  });
});
