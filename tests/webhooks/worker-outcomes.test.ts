import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as createEndpointRoute } from "@/app/v1/webhook-endpoints/route";
import { PATCH as patchEndpointRoute } from "@/app/v1/webhook-endpoints/[id]/route";
import { POST as createCustomerRoute } from "@/app/v1/customers/route";
import { PATCH as updateCustomerRoute } from "@/app/v1/customers/[id]/route";
import { POST as resendRoute } from "@/app/v1/webhook-deliveries/[id]/resend/route";
import { db } from "@/lib/db/client";
import { captureLogsForTests } from "@/lib/log";
import { sendTestEvent } from "@/lib/webhooks/deliveries";
import { MAX_ATTEMPTS, MAX_DELAY_MS, PLATFORM_RETRY_MS, RETRY_DELAYS_MS } from "@/lib/webhooks/retry-schedule";
import { attempt, claimDeliveries, dispatchEvents, recordResults } from "@/lib/webhooks/worker";
import { uniqueCpf } from "../credit/flow-helpers";
import { actor, newKey, newTenant } from "../helpers/factory";
import { bearer, call } from "../helpers/http";
import { drainWebhooks } from "../helpers/webhook-drain";
import { startReceiver } from "../helpers/webhook-receiver";

// What the worker makes of each outcome: only what the receiver did counts against its endpoint; a change of the
// endpoint while an attempt is in flight leaves that attempt's record alone; Retry-After is honoured; a resend is
// not overwritten by a worker that outlived its lease.

type Receiver = Awaited<ReturnType<typeof startReceiver>>;
let receiver: Receiver;
const logs: { level: number; msg: string; delivery_id?: string }[] = [];
beforeAll(async () => {
  captureLogsForTests((line) => logs.push(JSON.parse(line) as (typeof logs)[number]), "warn");
  receiver = await startReceiver();
  await drainWebhooks();
});
afterAll(() => receiver.close());
afterEach(() => {
  vi.restoreAllMocks();
  receiver.respondWith(() => ({ status: 200, body: "ok" }));
});

const SEND = { environment: "sandbox" as const, allowLoopback: true, timeoutMs: 5_000 };

async function tenant() {
  const { tenant } = await newTenant();
  const { key } = await newKey(tenant.id, "sandbox", ["read", "write"]);
  return { tenant, headers: bearer(key, tenant.id), scope: { tenantId: tenant.id, environment: "sandbox" as const } };
}
type T = Awaited<ReturnType<typeof tenant>>;

async function endpoint(t: T, event_types: string[]) {
  const res = await call(createEndpointRoute, { path: "/v1/webhook-endpoints", headers: t.headers, json: { url: receiver.url(`/${t.tenant.id}`), event_types } });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string; url: string };
}

/** A customer.created event, and a customer.updated one after it. */
async function customerEvents(t: T) {
  const res = await call(createCustomerRoute, { path: "/v1/customers", headers: t.headers, json: { document: uniqueCpf(), name: "Ana Souza" } });
  expect(res.status).toBe(201);
  const updated = await call(updateCustomerRoute, { path: `/v1/customers/${res.body.id}`, headers: t.headers, params: { id: res.body.id }, json: { email: "ana@example.com" } });
  expect(updated.status).toBe(200);
}

const patch = (t: T, id: string, json: unknown) => call(patchEndpointRoute, { path: `/v1/webhook-endpoints/${id}`, headers: t.headers, params: { id }, json });
const to = (t: T) => receiver.received.filter((r) => r.path === `/${t.tenant.id}`);
const deliveriesOf = (endpointId: string) => db().webhookDelivery.findMany({ where: { endpointId }, include: { attempts: { orderBy: { number: "asc" } } }, orderBy: { createdAt: "asc" } });
const byType = async (endpointId: string) => Object.fromEntries((await deliveriesOf(endpointId)).map((d) => [d.eventType, d]));
const attemptsOf = (d: { attempts: { number: number; statusCode: number | null; error: string | null }[] }) => d.attempts.map((a) => [a.number, a.statusCode, a.error]);

/** Claims every due delivery and keeps those of `endpointId` (the others are recorded at once: nothing else waits). */
async function claimFor(endpointId: string) {
  while ((await dispatchEvents()) > 0);
  const claimed = await claimDeliveries(1000);
  const others = claimed.filter((c) => c.endpoint_id !== endpointId);
  await recordResults(await Promise.all(others.map((c) => attempt(c, SEND))));
  return claimed.filter((c) => c.endpoint_id === endpointId);
}

describe("webhook worker outcomes", () => {
  it("disabling an endpoint ends its queued deliveries but not those in flight: a delivered attempt records as succeeded", async () => {
    const t = await tenant();
    const ep = await endpoint(t, ["customer.created", "customer.updated"]);
    receiver.respondWith((r) => (r.path === `/${t.tenant.id}` && JSON.parse(r.body).type === "customer.updated" ? { status: 500, body: "boom" } : { status: 200, body: "ok" }));
    await customerEvents(t);
    const inFlight = await claimFor(ep.id);
    expect(inFlight).toHaveLength(2);
    const queued = await sendTestEvent(t.scope, actor, ep.id); // not claimed: queued

    expect((await patch(t, ep.id, { enabled: false })).status).toBe(200);
    const during = await byType(ep.id);
    expect(during["customer.created"]).toMatchObject({ status: "pending", attemptCount: 1, lockedUntil: expect.any(Date) });
    expect(during["customer.updated"]).toMatchObject({ status: "pending", attemptCount: 1, lockedUntil: expect.any(Date) });
    expect(during["webhook_endpoint.test"]).toMatchObject({ id: queued.id, status: "failed", attemptCount: 0, lastError: "The endpoint was disabled", nextAttemptAt: null });

    // The attempts made before the change end: the one the receiver took is a success; the failed one is not retried.
    await recordResults(await Promise.all(inFlight.map((c) => attempt(c, SEND))));
    const after = await byType(ep.id);
    expect(after["customer.created"]).toMatchObject({ status: "succeeded", attemptCount: 1, lockedUntil: null, lastStatusCode: 200, lastError: null, completedAt: expect.any(Date) });
    expect(attemptsOf(after["customer.created"]!)).toEqual([[1, 200, null]]);
    expect(after["customer.updated"]).toMatchObject({ status: "failed", attemptCount: 1, lockedUntil: null, nextAttemptAt: null, lastError: "The endpoint was disabled", completedAt: expect.any(Date) });
    expect(attemptsOf(after["customer.updated"]!)).toEqual([[1, 500, "The endpoint answered 500"]]);
    expect(to(t).map((r) => JSON.parse(r.body).type).sort()).toEqual(["customer.created", "customer.updated"]);
  });

  it("narrowing an endpoint ends queued deliveries of the dropped types; one in flight records what the receiver did", async () => {
    const t = await tenant();
    const ep = await endpoint(t, ["customer.created", "customer.updated"]);
    await customerEvents(t);
    const inFlight = await claimFor(ep.id);
    expect(inFlight.map((c) => c.event_type).sort()).toEqual(["customer.created", "customer.updated"]);

    expect((await patch(t, ep.id, { event_types: ["customer.created"] })).status).toBe(200);
    expect((await byType(ep.id))["customer.updated"]).toMatchObject({ status: "pending", lockedUntil: expect.any(Date) });
    await recordResults(await Promise.all(inFlight.map((c) => attempt(c, SEND))));
    const after = await byType(ep.id);
    expect(after["customer.updated"]).toMatchObject({ status: "succeeded", attemptCount: 1, lockedUntil: null, lastStatusCode: 200 });
    expect(after["customer.created"]).toMatchObject({ status: "succeeded", attemptCount: 1, lockedUntil: null, lastStatusCode: 200 });
  });

  it("an attempt the platform cannot make is retried later without using an attempt, and never disables the endpoint", async () => {
    const t = await tenant();
    const ep = await endpoint(t, ["customer.created"]);
    await customerEvents(t);
    while ((await dispatchEvents()) > 0);
    // The endpoint has failed for 4 days and this is the delivery's last attempt: a failure of the receiver would disable it.
    const failingSince = new Date(Date.now() - 4 * 24 * 3600_000);
    await db().webhookEndpoint.update({ where: { id: ep.id }, data: { failingSince, secretCiphertext: "v1.not-a-sealed-secret" } });
    const [queued] = await deliveriesOf(ep.id);
    await db().webhookDelivery.update({ where: { id: queued!.id }, data: { attemptCount: MAX_ATTEMPTS - 1 } });
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const now = new Date(Date.now() + 1_000);
    await drainWebhooks({ now: () => now });

    const [d] = await deliveriesOf(ep.id);
    expect(d).toMatchObject({
      status: "pending",
      attemptCount: MAX_ATTEMPTS - 1,
      lockedUntil: null,
      nextAttemptAt: new Date(now.getTime() + PLATFORM_RETRY_MS),
      lastError: "The platform could not make this attempt (see its logs); it is tried again later",
      completedAt: null,
    });
    expect(d!.attempts).toEqual([]); // nothing was sent
    expect(to(t)).toEqual([]);
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } })).toMatchObject({ enabled: true, disabledReason: null, failingSince });
    expect(logs.filter((l) => l.delivery_id === d!.id).map((l) => [l.level, l.msg])).toEqual([[50, "a webhook attempt could not be made"]]);
  });

  it("a delivery its endpoint no longer carries ends without counting against the endpoint", async () => {
    const t = await tenant();
    const ep = await endpoint(t, ["customer.created", "customer.updated"]);
    await customerEvents(t);
    while ((await dispatchEvents()) > 0);
    // Narrowed behind the API's back (as by a dispatch racing the change), on a failing endpoint, at the last attempt.
    await db().webhookEndpoint.update({ where: { id: ep.id }, data: { eventTypes: ["customer.created"], failingSince: new Date(Date.now() - 4 * 24 * 3600_000) } });
    await db().webhookDelivery.updateMany({ where: { endpointId: ep.id, eventType: "customer.updated" }, data: { attemptCount: MAX_ATTEMPTS - 1 } });
    await db().webhookDelivery.updateMany({ where: { endpointId: ep.id, eventType: "customer.created" }, data: { nextAttemptAt: new Date(Date.now() + 3600_000) } });
    await drainWebhooks();
    const after = await byType(ep.id);
    expect(after["customer.updated"]).toMatchObject({ status: "failed", attemptCount: MAX_ATTEMPTS, lastError: "The endpoint no longer subscribes to this event type", nextAttemptAt: null });
    expect(to(t)).toEqual([]);
    expect(await db().webhookEndpoint.findUniqueOrThrow({ where: { id: ep.id } })).toMatchObject({ enabled: true, disabledReason: null });
    expect(await db().auditLog.count({ where: { targetId: ep.id, action: "webhook_endpoint.disabled" } })).toBe(0);
  });

  it("honours Retry-After on 429 and 502/503/504 (seconds or an HTTP date), capped at 10 h; other answers keep the schedule", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const now = new Date(Math.ceil(Date.now() / 1000) * 1000 + 1000); // whole seconds: an HTTP date has no milliseconds
    const cases: { status: number; retryAfter: string; wait: number }[] = [
      { status: 503, retryAfter: "3600", wait: 3600_000 },
      { status: 429, retryAfter: new Date(now.getTime() + 2 * 3600_000).toUTCString(), wait: 2 * 3600_000 },
      { status: 502, retryAfter: "604800", wait: MAX_DELAY_MS }, // a week: capped
      { status: 504, retryAfter: "1", wait: RETRY_DELAYS_MS[0]! }, // sooner than the schedule: the schedule
      { status: 500, retryAfter: "3600", wait: RETRY_DELAYS_MS[0]! }, // not a status that asks to wait
    ];
    for (const c of cases) {
      const t = await tenant();
      const ep = await endpoint(t, ["customer.created"]);
      receiver.respondWith((r) => (r.path === `/${t.tenant.id}` ? { status: c.status, headers: { "retry-after": c.retryAfter } } : { status: 200, body: "ok" }));
      await call(createCustomerRoute, { path: "/v1/customers", headers: t.headers, json: { document: uniqueCpf(), name: "Ana Souza" } });
      await drainWebhooks({ now: () => now });
      const [d] = await deliveriesOf(ep.id);
      expect(d, `${c.status} ${c.retryAfter}`).toMatchObject({ status: "pending", attemptCount: 1, lastStatusCode: c.status, nextAttemptAt: new Date(now.getTime() + c.wait) });
    }
  });

  it("a resend clears a lapsed lease: the stalled worker that held it cannot overwrite the resend", async () => {
    const t = await tenant();
    const ep = await endpoint(t, ["customer.created"]);
    receiver.respondWith((r) => (r.path === `/${t.tenant.id}` ? { status: 500, body: "boom" } : { status: 200, body: "ok" }));
    await call(createCustomerRoute, { path: "/v1/customers", headers: t.headers, json: { document: uniqueCpf(), name: "Ana Souza" } });
    // A worker claims the first attempt and stalls past its lease.
    const [stalled] = await claimFor(ep.id);
    const [d] = await deliveriesOf(ep.id);
    await db().webhookDelivery.update({ where: { id: d!.id }, data: { lockedUntil: new Date(Date.now() - 1) } });

    const resent = await call(resendRoute, { path: `/v1/webhook-deliveries/${d!.id}/resend`, headers: t.headers, params: { id: d!.id } });
    expect(resent.status).toBe(202);
    const afterResend = (await deliveriesOf(ep.id))[0]!;
    expect(afterResend).toMatchObject({ status: "pending", attemptCount: 1, lockedUntil: null });
    expect(attemptsOf(afterResend)).toEqual([[1, null, "The worker stopped during this attempt: its outcome is unknown"]]);

    // The stalled worker wakes up and records its (failed) attempt: the resend stands, due now.
    await recordResults([await attempt(stalled!, SEND)]);
    const untouched = (await deliveriesOf(ep.id))[0]!;
    expect(untouched).toEqual(afterResend);

    receiver.respondWith(() => ({ status: 200, body: "ok" }));
    await drainWebhooks();
    const done = (await deliveriesOf(ep.id))[0]!;
    expect(done).toMatchObject({ status: "succeeded", attemptCount: 2, lockedUntil: null });
    expect(attemptsOf(done)).toEqual([
      [1, null, "The worker stopped during this attempt: its outcome is unknown"],
      [2, 200, null],
    ]);
  });

  it("a resent delivery that had used all its attempts gets the whole schedule again, Retry-After included", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const t = await tenant();
    const ep = await endpoint(t, ["customer.created"]);
    await call(createCustomerRoute, { path: "/v1/customers", headers: t.headers, json: { document: uniqueCpf(), name: "Ana Souza" } });
    while ((await dispatchEvents()) > 0);
    const [d] = await deliveriesOf(ep.id);
    // It ran out of attempts (failed after the last one), then the integrator resends it.
    await db().webhookDelivery.update({ where: { id: d!.id }, data: { status: "failed", attemptCount: MAX_ATTEMPTS, nextAttemptAt: null, completedAt: new Date() } });
    const resent = await call(resendRoute, { path: `/v1/webhook-deliveries/${d!.id}/resend`, headers: t.headers, params: { id: d!.id } });
    expect(resent.status).toBe(202);

    // The receiver is rate limiting: the resent delivery waits as asked instead of failing for good after one try.
    receiver.respondWith((r) => (r.path === `/${t.tenant.id}` ? { status: 429, headers: { "retry-after": "3600" } } : { status: 200, body: "ok" }));
    const now = new Date(Math.ceil(Date.now() / 1000) * 1000 + 1000);
    await drainWebhooks({ now: () => now });
    expect((await deliveriesOf(ep.id))[0]).toMatchObject({ status: "pending", attemptCount: MAX_ATTEMPTS + 1, retryBase: MAX_ATTEMPTS, lastStatusCode: 429, nextAttemptAt: new Date(now.getTime() + 3600_000) });
  });
});
