import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createEndpointRoute } from "@/app/v1/webhook-endpoints/route";
import { PATCH as updateEndpointRoute } from "@/app/v1/webhook-endpoints/[id]/route";
import { POST as recoverRoute } from "@/app/v1/webhook-endpoints/[id]/recover/route";
import { POST as createCustomerRoute } from "@/app/v1/customers/route";
import { PATCH as updateCustomerRoute } from "@/app/v1/customers/[id]/route";
import { db } from "@/lib/db/client";
import { MAX_RECOVERED_DELIVERIES } from "@/lib/webhooks/schemas";
import { uniqueCpf } from "../credit/flow-helpers";
import { newKey, newTenant } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { drainWebhooks } from "../helpers/webhook-drain";
import { startReceiver } from "../helpers/webhook-receiver";

// POST /v1/webhook-endpoints/{id}/recover: the events an endpoint missed in a window are queued to it again.

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
  await drainWebhooks();
});
afterAll(() => receiver.close());

async function tenant() {
  const { tenant } = await newTenant();
  const { key } = await newKey(tenant.id, "sandbox", ["read", "write"]);
  return { tenant, headers: bearer(key, tenant.id) };
}
type T = Awaited<ReturnType<typeof tenant>>;

async function endpoint(t: T, event_types: string[]) {
  const res = await call(createEndpointRoute, { path: "/v1/webhook-endpoints", headers: t.headers, json: { url: receiver.url(`/${t.tenant.id}`), event_types } });
  expect(res.status).toBe(201);
  return res.body as { id: string; created_at: string };
}

async function customer(t: T) {
  const res = await call(createCustomerRoute, { path: "/v1/customers", headers: t.headers, json: { document: uniqueCpf(), name: "Ana Souza" } });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

const setEnabled = (t: T, id: string, enabled: boolean) =>
  call(updateEndpointRoute, { method: "PATCH", path: `/v1/webhook-endpoints/${id}`, headers: t.headers, params: { id }, json: { enabled } });
const recover = (t: T, id: string, json: Record<string, unknown>, headers = t.headers) =>
  call(recoverRoute, { path: `/v1/webhook-endpoints/${id}/recover`, headers, params: { id }, json });
const to = (t: T) => receiver.received.filter((r) => r.path === `/${t.tenant.id}`);
const customerIdsReceived = (t: T) => to(t).map((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id);
const deliveries = (endpointId: string) => db().webhookDelivery.findMany({ where: { endpointId }, orderBy: { id: "asc" }, select: { id: true, eventId: true, status: true, attemptCount: true } });
const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();

describe("recovering an endpoint's missed events", () => {
  it("queues the events of its types it missed while disabled, oldest first, once; other types and delivered events are left alone", async () => {
    const t = await tenant();
    const ep = await endpoint(t, ["customer.created"]);
    const before = await customer(t);
    await drainWebhooks();
    expect((await setEnabled(t, ep.id, false)).status).toBe(200);
    const missed = [await customer(t), await customer(t)];
    const patched = await call(updateCustomerRoute, { method: "PATCH", path: `/v1/customers/${before.id}`, headers: t.headers, params: { id: before.id }, json: { name: "Ana Souza Lima" } });
    expect(patched.status).toBe(200); // customer.updated: a type the endpoint does not carry
    await drainWebhooks(); // published while disabled: no deliveries for them
    expect(await deliveries(ep.id)).toHaveLength(1);
    expect((await setEnabled(t, ep.id, true)).status).toBe(200);

    const res = await recover(t, ep.id, { since: hourAgo() });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      object: "webhook_recovery",
      endpoint_id: ep.id,
      since: ep.created_at, // the window starts at the endpoint's creation
      until: expect.any(String),
      deliveries_created: 2,
      deliveries_resent: 0,
      has_more: false,
      next_since: null,
    });
    await drainWebhooks();
    expect(customerIdsReceived(t)).toEqual([before.id, missed[0]!.id, missed[1]!.id]);
    expect((await deliveries(ep.id)).map((d) => d.status)).toEqual(["succeeded", "succeeded", "succeeded"]);

    // Again over the same window: nothing to queue, nothing sent twice.
    const again = await recover(t, ep.id, { since: hourAgo() });
    expect(again.body).toMatchObject({ deliveries_created: 0, deliveries_resent: 0, has_more: false });
    await drainWebhooks();
    expect(to(t)).toHaveLength(3);
    const audit = await db().auditLog.findMany({ where: { targetId: ep.id, action: "webhook_endpoint.recovered" }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => [a.actorType, a.environment, a.metadata])).toEqual([
      ["api_key", "sandbox", { since: ep.created_at, until: (res.body as { until: string }).until, deliveries_created: 2, deliveries_resent: 0, has_more: false }],
      ["api_key", "sandbox", expect.objectContaining({ deliveries_created: 0, deliveries_resent: 0 })],
    ]);
  });

  it("sends a failed delivery again under the same webhook-id (a 410 disabled the endpoint), and only the window's", async () => {
    const t = await tenant();
    const ep = await endpoint(t, ["customer.created"]);
    receiver.respondWith((r) => (r.path === `/${t.tenant.id}` ? { status: 410 } : { status: 200, body: "ok" }));
    await customer(t);
    await drainWebhooks();
    receiver.respondWith(() => ({ status: 200, body: "ok" }));
    const [failed] = await deliveries(ep.id);
    expect(failed).toMatchObject({ status: "failed", attemptCount: 1 });
    expect((await recover(t, ep.id, { since: hourAgo() })).status).toBe(409); // disabled by the 410
    expect((await setEnabled(t, ep.id, true)).status).toBe(200);

    const windowEnd = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const later = await customer(t);
    await drainWebhooks(); // delivered normally: the endpoint is enabled again
    const res = await recover(t, ep.id, { since: hourAgo(), until: windowEnd });
    expect(res.body).toMatchObject({ until: windowEnd, deliveries_created: 0, deliveries_resent: 1, has_more: false });
    await drainWebhooks();
    expect(await deliveries(ep.id)).toEqual([
      { id: failed!.id, eventId: failed!.eventId, status: "succeeded", attemptCount: 2 },
      expect.objectContaining({ status: "succeeded", attemptCount: 1 }),
    ]);
    const got = to(t);
    expect(got.map((r) => r.headers["webhook-id"])).toEqual([failed!.eventId, expect.any(String), failed!.eventId]);
    expect(customerIdsReceived(t)[1]).toBe(later.id);
  });

  it("an endpoint of every type (\"*\") recovers events of any type", async () => {
    const t = await tenant();
    const ep = await endpoint(t, ["*"]);
    expect((await setEnabled(t, ep.id, false)).status).toBe(200);
    const missed = await customer(t);
    await drainWebhooks();
    expect((await setEnabled(t, ep.id, true)).status).toBe(200);
    const res = await recover(t, ep.id, { since: hourAgo() });
    expect(res.body).toMatchObject({ deliveries_created: 1, deliveries_resent: 0, has_more: false });
    await drainWebhooks();
    expect(customerIdsReceived(t)).toEqual([missed.id]);
  });

  it("queues at most the cap per call, oldest first, and says when there is more", async () => {
    const t = await tenant();
    const ep = await endpoint(t, ["customer.created"]);
    expect((await setEnabled(t, ep.id, false)).status).toBe(200);
    // The cap plus one published events it never received, half an hour ago (written in SQL: the recovery reads only
    // the outbox), the endpoint made an hour ago.
    // Ids of this run's own (a second run on the same database would collide with fixed ones).
    const prefix = `evt_${Array.from({ length: 3 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("")}`;
    await db().$executeRaw`UPDATE webhook_endpoints SET created_at = now() - interval '1 hour' WHERE id = ${ep.id}`;
    await db().$executeRaw`
      INSERT INTO outbox_events (id, tenant_id, environment, type, payload, created_at, published_at)
      SELECT ${prefix} || lpad(n::text, 19, '0'), ${t.tenant.id}, 'sandbox', 'customer.created', '{}'::jsonb,
             now() - interval '30 minutes' + make_interval(secs => n / 1000.0), now()
        FROM generate_series(1, ${MAX_RECOVERED_DELIVERIES + 1}) AS n`;
    expect((await setEnabled(t, ep.id, true)).status).toBe(200);
    const lastEvent = `${prefix}${String(MAX_RECOVERED_DELIVERIES + 1).padStart(19, "0")}`;

    const first = await recover(t, ep.id, { since: hourAgo() });
    const lastQueued = await db().outboxEvent.findUniqueOrThrow({ where: { id: `${prefix}${String(MAX_RECOVERED_DELIVERIES).padStart(19, "0")}` } });
    expect(first.body).toMatchObject({ deliveries_created: MAX_RECOVERED_DELIVERIES, deliveries_resent: 0, has_more: true, next_since: lastQueued.createdAt.toISOString() });
    expect(await db().webhookDelivery.count({ where: { endpointId: ep.id, eventId: lastEvent } })).toBe(0); // the oldest went first
    // Called again from next_since (the same window would do too): the rest, and nothing twice.
    const second = await recover(t, ep.id, { since: first.body.next_since });
    expect(second.body).toMatchObject({ since: first.body.next_since, deliveries_created: 1, deliveries_resent: 0, has_more: false, next_since: null });
    expect((await recover(t, ep.id, { since: hourAgo() })).body).toMatchObject({ deliveries_created: 0, deliveries_resent: 0, has_more: false });
    expect(await db().webhookDelivery.count({ where: { endpointId: ep.id } })).toBe(MAX_RECOVERED_DELIVERIES + 1);
    expect(await db().webhookDelivery.count({ where: { endpointId: ep.id, eventId: lastEvent } })).toBe(1);
    await db().webhookEndpoint.delete({ where: { id: ep.id } }); // not sent to the receiver
    await db().outboxEvent.deleteMany({ where: { tenantId: t.tenant.id } });
  }, 60_000);

  it("refuses a window it cannot judge, a disabled endpoint, a credential that may not read its events, and another tenant's endpoint — changing nothing", async () => {
    const t = await tenant();
    const ep = await endpoint(t, ["customer.created"]);
    const problem = async (res: Promise<{ status: number; body: unknown }>) => {
      const { status, body } = await res;
      const b = body as { code: string; errors?: { param: string }[] };
      return [status, b.code, b.errors?.map((e) => e.param)];
    };
    const longAgo = new Date(Date.now() - 91 * 86_400_000).toISOString();
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect(await problem(recover(t, ep.id, { since: longAgo }))).toEqual([400, "validation_error", ["since"]]);
    expect(await problem(recover(t, ep.id, { since: hourAgo(), until: tomorrow }))).toEqual([400, "validation_error", ["until"]]);
    expect(await problem(recover(t, ep.id, { since: hourAgo(), until: new Date(Date.now() - 7200_000).toISOString() }))).toEqual([400, "validation_error", ["until"]]);
    expect(await problem(recover(t, ep.id, { since: tomorrow }))).toEqual([400, "validation_error", ["since"]]);
    expect(await problem(recover(t, ep.id, { since: "2026-11-24" }))).toEqual([400, "validation_error", ["since"]]);
    expect(await problem(recover(t, ep.id, { since: hourAgo(), extra: 1 }))).toEqual([400, "validation_error", ["extra"]]);

    const { key: writer } = await newKey(t.tenant.id, "sandbox", ["webhooks:read", "webhooks:write"]);
    expect(await problem(recover(t, ep.id, { since: hourAgo() }, bearer(writer, t.tenant.id)))).toEqual([403, "forbidden", undefined]);
    const other = await tenant();
    expect(await problem(recover(other, ep.id, { since: hourAgo() }))).toEqual([404, "not_found", undefined]);
    const { key: live } = await newKey(t.tenant.id, "production", ["read", "write"]);
    expect((await call(recoverRoute, { base: PRODUCTION, path: `/v1/webhook-endpoints/${ep.id}/recover`, headers: bearer(live, t.tenant.id), params: { id: ep.id }, json: { since: hourAgo() } })).status).toBe(404);
    expect((await setEnabled(t, ep.id, false)).status).toBe(200);
    expect(await problem(recover(t, ep.id, { since: hourAgo() }))).toEqual([409, "conflict", undefined]);
    expect(await db().auditLog.count({ where: { targetId: ep.id, action: "webhook_endpoint.recovered" } })).toBe(0);
    expect(await db().webhookDelivery.count({ where: { endpointId: ep.id } })).toBe(0);
  });
});
