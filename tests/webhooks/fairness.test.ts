import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createEndpointRoute } from "@/app/v1/webhook-endpoints/route";
import { db } from "@/lib/db/client";
import { sendTestEvent } from "@/lib/webhooks/deliveries";
import { DeliveryPool } from "@/lib/webhooks/delivery-pool";
import { claimDeliveries, dispatchEvents, recordResults, runOnce } from "@/lib/webhooks/worker";
import { actor, newKey, newTenant } from "../helpers/factory";
import { bearer, call } from "../helpers/http";

// One receiver that hangs must not hold everyone's deliveries: the claim caps each endpoint's attempts in flight, and
// the worker's pool records a finished attempt while others are still in flight (rounds used to wait for their
// slowest attempt). The hanging receiver here answers only when the test releases it: nothing depends on timing.

let server: http.Server;
let port = 0;
const held: http.ServerResponse[] = [];
let holding = true;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url?.startsWith("/slow") && holding) held.push(res);
      else res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  // Whatever earlier files left due is attempted first, so that only this file's deliveries are claimed below.
  while ((await dispatchEvents()) > 0);
  while ((await runOnce({ send: SEND })).attempted > 0);
});
afterAll(async () => {
  release();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function release() {
  holding = false;
  for (const res of held.splice(0)) res.end("ok");
}

const SEND = { environment: "sandbox" as const, allowLoopback: true, timeoutMs: 20_000 };

async function endpointFor(path: string) {
  const { tenant } = await newTenant();
  const { key } = await newKey(tenant.id, "sandbox", ["read", "webhooks:write"]);
  const res = await call(createEndpointRoute, { path: "/v1/webhook-endpoints", headers: bearer(key, tenant.id), json: { url: `http://127.0.0.1:${port}${path}`, event_types: ["*"] } });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, scope: { tenantId: tenant.id, environment: "sandbox" as const } };
}

const deliveriesOf = (endpointId: string) => db().webhookDelivery.findMany({ where: { endpointId }, orderBy: { createdAt: "asc" } });

describe("webhook delivery fairness", () => {
  it("claims no more of one endpoint than its cap of attempts in flight, counting those other workers hold", async () => {
    const busy = await endpointFor("/busy");
    const other = await endpointFor("/other");
    for (let i = 0; i < 5; i++) await sendTestEvent(busy.scope, actor, busy.id);
    await sendTestEvent(other.scope, actor, other.id);
    const first = await claimDeliveries(10, 2);
    expect(first.filter((c) => c.endpoint_id === busy.id)).toHaveLength(2);
    expect(first.filter((c) => c.endpoint_id === other.id)).toHaveLength(1);
    // Those two are still in flight (leased): the next claim takes none of the busy endpoint's three left.
    expect((await claimDeliveries(10, 2)).filter((c) => c.endpoint_id === busy.id)).toHaveLength(0);
    // Recorded (answered), they free the endpoint's slots: two more.
    await recordResults(first.map((claimed) => ({ claimed, startedAt: new Date(), body: "{}", outcome: { ok: true, statusCode: 200, error: null, durationMs: 1, responseBody: "ok" } })));
    expect((await claimDeliveries(10, 2)).filter((c) => c.endpoint_id === busy.id)).toHaveLength(2);
    // Leave nothing leased for the next test: the leases lapse as if those workers died.
    await db().webhookDelivery.updateMany({ where: { endpointId: busy.id, status: "pending" }, data: { lockedUntil: new Date(Date.now() - 1000), nextAttemptAt: new Date() } });
    while ((await runOnce({ send: SEND })).attempted > 0);
    expect((await deliveriesOf(busy.id)).map((d) => d.status)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded", "succeeded"]);
  });

  // The second shape is the defaults' (50 slots, 40 per endpoint): the cap leaves fewer slots free than the pool's
  // refill share (a quarter), and a pool that waited for a quarter to be free claimed nothing more while the hanging
  // receiver held its 40 — every other tenant's deliveries waited for its timeouts.
  it.each([
    { concurrency: 4, perEndpoint: 2 },
    { concurrency: 8, perEndpoint: 7 },
  ])("a hanging receiver with a backlog keeps only its own slots: another tenant's delivery is sent and recorded meanwhile (%o)", async ({ concurrency, perEndpoint }) => {
    holding = true;
    const slow = await endpointFor("/slow");
    const fast = await endpointFor("/fast");
    // The slow endpoint's backlog is older: a first-come claim would give it every slot.
    const backlog = perEndpoint + 4;
    for (let i = 0; i < backlog; i++) await sendTestEvent(slow.scope, actor, slow.id);

    const pool = new DeliveryPool({ concurrency, perEndpoint, send: SEND });
    const stop = new AbortController();
    await pool.turn();
    for (let i = 0; i < 200 && held.length < perEndpoint; i++) {
      await pool.waitForProgress(20, stop.signal);
      await pool.turn();
    }
    expect(held).toHaveLength(perEndpoint);
    // Another tenant's event arrives while the slow receiver holds its slots: the pool claims it with what is left.
    await sendTestEvent(fast.scope, actor, fast.id);
    for (let i = 0; i < 200 && (await deliveriesOf(fast.id))[0]!.status !== "succeeded"; i++) {
      await pool.waitForProgress(50, stop.signal);
      await pool.turn();
    }
    expect((await deliveriesOf(fast.id)).map((d) => [d.status, d.attemptCount])).toEqual([["succeeded", 1]]);
    // Meanwhile the slow receiver holds exactly its cap of attempts; the rest of its backlog waits, unclaimed.
    expect(held).toHaveLength(perEndpoint);
    expect(pool.busy).toBe(perEndpoint);
    const waiting = await deliveriesOf(slow.id);
    expect(waiting.map((d) => d.status)).toEqual(Array(backlog).fill("pending"));
    expect(waiting.map((d) => d.attemptCount).sort()).toEqual([...Array(4).fill(0), ...Array(perEndpoint).fill(1)]);

    // Released, everything goes through: the pool records those, then claims and sends the rest.
    release();
    for (let i = 0; i < 200 && (await deliveriesOf(slow.id)).some((d) => d.status !== "succeeded"); i++) {
      await pool.waitForProgress(50, stop.signal);
      await pool.turn();
    }
    await pool.drain();
    expect((await deliveriesOf(slow.id)).map((d) => [d.status, d.attemptCount])).toEqual(Array(backlog).fill(["succeeded", 1]));
    expect(await db().webhookAttempt.count({ where: { delivery: { endpointId: slow.id } } })).toBe(backlog);
  });
});
