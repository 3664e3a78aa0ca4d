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

  it("a hanging receiver with a backlog keeps only its own slots: another tenant's delivery is sent and recorded meanwhile", async () => {
    const slow = await endpointFor("/slow");
    const fast = await endpointFor("/fast");
    // The slow endpoint's backlog is older: a first-come claim would give it every slot.
    for (let i = 0; i < 6; i++) await sendTestEvent(slow.scope, actor, slow.id);
    await sendTestEvent(fast.scope, actor, fast.id);

    const pool = new DeliveryPool({ concurrency: 4, perEndpoint: 2, send: SEND });
    const stop = new AbortController();
    await pool.turn();
    for (let i = 0; i < 200 && (await deliveriesOf(fast.id))[0]!.status !== "succeeded"; i++) {
      await pool.waitForProgress(50, stop.signal);
      await pool.turn();
    }
    expect((await deliveriesOf(fast.id)).map((d) => [d.status, d.attemptCount])).toEqual([["succeeded", 1]]);
    // Meanwhile the slow receiver holds exactly its two attempts; its other four wait, unclaimed.
    expect(held).toHaveLength(2);
    expect(pool.busy).toBe(2);
    const waiting = await deliveriesOf(slow.id);
    expect(waiting.map((d) => d.status)).toEqual(Array(6).fill("pending"));
    expect(waiting.map((d) => d.attemptCount).sort()).toEqual([0, 0, 0, 0, 1, 1]);

    // Released, everything goes through: the pool records the two, then claims and sends the rest.
    release();
    for (let i = 0; i < 200 && (await deliveriesOf(slow.id)).some((d) => d.status !== "succeeded"); i++) {
      await pool.waitForProgress(50, stop.signal);
      await pool.turn();
    }
    await pool.drain();
    expect((await deliveriesOf(slow.id)).map((d) => [d.status, d.attemptCount])).toEqual(Array(6).fill(["succeeded", 1]));
    expect(await db().webhookAttempt.count({ where: { delivery: { endpointId: slow.id } } })).toBe(6);
  });
});
