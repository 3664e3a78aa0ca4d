import { describe, expect, it } from "vitest";
import { POST as createRoute } from "@/app/v1/webhook-endpoints/route";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { purgeFinishedDeliveries } from "@/lib/webhooks/retention";
import { newKey, newTenant } from "../helpers/factory";
import { bearer, call, SANDBOX } from "../helpers/http";

// Finished deliveries (copies of the bodies sent, personal data among them) are deleted with their attempts once
// WEBHOOK_RETENTION_DAYS have passed since they ended; pending ones and the events themselves stay.

const DAY = 86_400_000;

describe("webhook delivery retention", () => {
  it("deletes deliveries finished before the period, with their attempts; keeps recent and pending ones and every event", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id, "sandbox", ["read", "webhooks:write"]);
    const endpoint = (await call(createRoute, { base: SANDBOX, path: "/v1/webhook-endpoints", headers: bearer(key, tenant.id), json: { url: "http://localhost:4999/hook", event_types: ["*"] } })).body as { id: string };
    const scope = { tenantId: tenant.id, environment: "sandbox" as const };
    const now = Date.now();
    const make = async (status: "succeeded" | "failed" | "pending", endedDaysAgo: number | null) => {
      const event = newId("event");
      await db().outboxEvent.create({ data: { id: event, ...scope, type: "customer.created", payload: { id: "cus_x", document: "52998224725" }, publishedAt: new Date() } });
      const id = newId("webhookDelivery");
      const completedAt = endedDaysAgo === null ? null : new Date(now - endedDaysAgo * DAY);
      await db().webhookDelivery.create({ data: { id, ...scope, endpointId: endpoint.id, eventId: event, eventType: "customer.created", status, completedAt, nextAttemptAt: status === "pending" ? new Date() : null, attemptCount: 1 } });
      await db().webhookAttempt.create({ data: { id: newId("webhookAttempt"), deliveryId: id, number: 1, url: "http://localhost:4999/hook", startedAt: new Date(now - 100 * DAY), durationMs: 12, statusCode: 200, requestBody: '{"data":{"document":"52998224725"}}' } });
      return { id, event };
    };
    const oldSucceeded = await make("succeeded", 91);
    const oldFailed = await make("failed", 120);
    const recent = await make("succeeded", 89);
    const pending = await make("pending", null);

    expect(await purgeFinishedDeliveries(1000, 90)).toBeGreaterThanOrEqual(2);
    const left = await db().webhookDelivery.findMany({ where: { endpointId: endpoint.id }, select: { id: true } });
    expect(left.map((d) => d.id).sort()).toEqual([recent.id, pending.id].sort());
    expect(await db().webhookAttempt.count({ where: { deliveryId: { in: [oldSucceeded.id, oldFailed.id] } } })).toBe(0);
    expect(await db().webhookAttempt.count({ where: { deliveryId: { in: [recent.id, pending.id] } } })).toBe(2);
    // The events stay (GET /v1/events, the contract timeline).
    expect(await db().outboxEvent.count({ where: { id: { in: [oldSucceeded.event, oldFailed.event, recent.event, pending.event] } } })).toBe(4);
    // A second run finds nothing more of this endpoint's.
    await purgeFinishedDeliveries(1000, 90);
    expect(await db().webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(2);
  });
});
