import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation } from "@/lib/api/operation";
import { purgeExpiredIdempotencyRecords } from "@/lib/api/idempotency";
import { ApiError } from "@/lib/api/errors";
import { MAX_BODY_BYTES } from "@/lib/api/request-input";
import { apiRoute } from "@/lib/api/route";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { writeAudit } from "@/lib/audit/audit-log";
import { newKey, newTenant } from "../helpers/factory";
import { bearer, call, SANDBOX } from "../helpers/http";

afterAll(() => stopListener());

// A write operation declared only for these tests: it exercises the wrapper's permission, validation and
// idempotency steps exactly as a real module's route would, and records each execution as an audit row.
const CreateThing = z.strictObject({ name: z.string().trim().min(1).max(20), amount: z.number().int().positive() });
const op = defineOperation({
  operationId: "testCreateThing",
  method: "POST",
  path: "/v1/test-things",
  summary: "test",
  tags: ["Test"],
  auth: "bearer",
  permission: "customers:write",
  body: CreateThing,
  responses: { 201: { description: "created" } },
});

// A test holding requests in the handler sets `gate` (the handler waits for it) and `reached` (called as a request
// gets there: past the wrapper, so with its idempotency key claimed).
let gate: Promise<void> | null = null;
let reached: (() => void) | null = null;
const POST = apiRoute(op, async ({ ctx, body }) => {
  if (gate) {
    reached?.();
    await gate;
  }
  // A rule only the service can judge (as a document's check digits are): a 400 from inside the handler.
  if (body.name === "rejected") throw new ApiError("validation_error", "The service refused this name", { errors: [{ param: "name", in: "body", message: "refused" }] });
  await db().$transaction((tx) =>
    writeAudit(tx, { tenantId: ctx.tenantId, environment: ctx.environment, actor: ctx.actor, action: "test.thing_created", target: { type: "thing", id: body.name } }),
  );
  return { status: 201, body: { object: "thing", name: body.name, amount: body.amount, environment: ctx.environment }, headers: { link: `</v1/test-things/${body.name}>; rel="self"` } };
});

const executions = (tenantId: string) => db().auditLog.count({ where: { tenantId, action: "test.thing_created" } });
const post = (key: string, tenantId: string, json: unknown, requestId?: string) =>
  call(POST, { path: "/v1/test-things", json, headers: { ...bearer(key, tenantId), ...(requestId ? { "x-request-id": requestId } : {}) } });

describe("the /v1 wrapper", () => {
  it("refuses a read-only credential on a write route with 403 and runs nothing", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id, "sandbox", ["read"]);
    const res = await post(key, tenant.id, { name: "a", amount: 1 });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      type: "urn:credit-platform:problem:insufficient_permissions",
      title: "The credential lacks the required permission",
      status: 403,
      detail: "This operation requires the customers:write permission",
      code: "insufficient_permissions",
      request_id: expect.any(String),
    });
    expect(await executions(tenant.id)).toBe(0);
    const { key: fine } = await newKey(tenant.id, "sandbox", ["customers:write"]);
    expect((await post(fine, tenant.id, { name: "a", amount: 1 })).status).toBe(201);
  });

  it("rejects unknown fields, wrong types and bad JSON with field errors, and stores nothing", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id);
    const res = await post(key, tenant.id, { name: "", amount: 1.5, tenant_id: "ten_x", status: "paid" }, "req-validation-1");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      type: "urn:credit-platform:problem:validation_error",
      title: "The request is invalid",
      status: 400,
      detail: "One or more fields are invalid",
      code: "validation_error",
      request_id: "req-validation-1",
      errors: [
        { param: "name", in: "body", message: "Too small: expected string to have >=1 characters" },
        { param: "amount", in: "body", message: "Invalid input: expected int, received number" },
        { param: "tenant_id", in: "body", message: "Unknown field" },
        { param: "status", in: "body", message: "Unknown field" },
      ],
    });
    const badJson = await call(POST, { path: "/v1/test-things", rawBody: "{", headers: { ...bearer(key, tenant.id), "content-type": "application/json" } });
    expect(badJson.status).toBe(400);
    expect(badJson.body.code).toBe("invalid_json");
    const big = await call(POST, { path: "/v1/test-things", rawBody: JSON.stringify({ name: "x".repeat(1_100_000) }), headers: { ...bearer(key, tenant.id), "content-type": "application/json" } });
    expect(big.status).toBe(413);
    expect(await executions(tenant.id)).toBe(0);
    expect(await db().idempotencyRecord.count({ where: { tenantId: tenant.id } })).toBe(0);
    // The same key now with a valid body runs normally: the failed validation was not recorded.
    expect((await post(key, tenant.id, { name: "ok", amount: 1 }, "req-validation-1")).status).toBe(201);
  });

  it("replays a repeated X-Request-Id, answers 422 for another body under the same key", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id);
    const first = await post(key, tenant.id, { name: "loan", amount: 100 }, "6d1f6f5e-3c0b-4c5e-9b9d-0a4f6f2d1a10");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await post(key, tenant.id, { amount: 100, name: "loan" }, "6d1f6f5e-3c0b-4c5e-9b9d-0a4f6f2d1a10");
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // Headers the handler added are part of the response replayed.
    expect([first.headers.get("link"), again.headers.get("link")]).toEqual(['</v1/test-things/loan>; rel="self"', '</v1/test-things/loan>; rel="self"']);
    const other = await post(key, tenant.id, { name: "loan", amount: 200 }, "6d1f6f5e-3c0b-4c5e-9b9d-0a4f6f2d1a10");
    expect(other.status).toBe(422);
    expect(other.body.code).toBe("idempotency_key_reused");
    const synonym = await call(POST, { path: "/v1/test-things", json: { name: "loan", amount: 100 }, headers: { ...bearer(key, tenant.id), "idempotency-key": "6d1f6f5e-3c0b-4c5e-9b9d-0a4f6f2d1a10" } });
    expect(synonym.headers.get("idempotent-replayed")).toBe("true");
    expect(await executions(tenant.id)).toBe(1);

    // Keys are scoped to the tenant: another tenant's identical key runs its own request.
    const { tenant: other2 } = await newTenant();
    const { key: key2 } = await newKey(other2.id);
    const theirs = await post(key2, other2.id, { name: "loan", amount: 100 }, "6d1f6f5e-3c0b-4c5e-9b9d-0a4f6f2d1a10");
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(await executions(other2.id)).toBe(1);

    // And to the credential: another key of the same tenant sending the same X-Request-Id (a tracing id that shows
    // in logs) runs its own request and never gets the first one's response.
    const { key: sibling } = await newKey(tenant.id);
    const mine = await post(sibling, tenant.id, { name: "loan", amount: 100 }, "6d1f6f5e-3c0b-4c5e-9b9d-0a4f6f2d1a10");
    expect([mine.status, mine.headers.get("idempotent-replayed")]).toEqual([201, null]);
    expect(await executions(tenant.id)).toBe(2);
  });

  it("deletes records past their 24 hours, and only those", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id);
    await post(key, tenant.id, { name: "old", amount: 1 }, "purge-old");
    await post(key, tenant.id, { name: "new", amount: 1 }, "purge-new");
    await db().idempotencyRecord.updateMany({ where: { tenantId: tenant.id, key: { endsWith: ":purge-old" } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    while ((await purgeExpiredIdempotencyRecords(1000)) > 0);
    expect((await db().idempotencyRecord.findMany({ where: { tenantId: tenant.id }, select: { key: true } })).map((r) => r.key.split(":").at(-1))).toEqual(["purge-new"]);
  });

  it("answers 409 while the first request with a key is still running, then replays it", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id);
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const inHandler = new Promise<void>((resolve) => (reached = resolve));
    const first = post(key, tenant.id, { name: "slow", amount: 1 }, "concurrent-1");
    // The first request has claimed the key and waits at the gate (not a guess at how long that takes).
    await Promise.race([
      inHandler,
      first.then((res) => {
        throw new Error(`the first request ended (${res.status}) before reaching its handler`);
      }),
    ]);
    reached = null;
    const second = await post(key, tenant.id, { name: "slow", amount: 1 }, "concurrent-1");
    expect(second.status).toBe(409);
    expect(second.body.code).toBe("idempotency_in_progress");
    open();
    gate = null;
    expect((await first).status).toBe(201);
    const third = await post(key, tenant.id, { name: "slow", amount: 1 }, "concurrent-1");
    expect(third.headers.get("idempotent-replayed")).toBe("true");
    expect(await executions(tenant.id)).toBe(1);
  });

  it("does not store a 400 the service gives: the same request is judged again, a corrected one is no reused key", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id);
    const refused = await post(key, tenant.id, { name: "rejected", amount: 1 }, "service-400");
    expect([refused.status, refused.body.code, refused.headers.get("idempotent-replayed")]).toEqual([400, "validation_error", null]);
    expect(await db().idempotencyRecord.count({ where: { tenantId: tenant.id } })).toBe(0);
    const again = await post(key, tenant.id, { name: "rejected", amount: 1 }, "service-400");
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([400, null]);
    const corrected = await post(key, tenant.id, { name: "accepted", amount: 1 }, "service-400");
    expect(corrected.status).toBe(201);
    expect(await executions(tenant.id)).toBe(1);
  });

  it("reads a body sent without Content-Length no further than the limit: 413, the rest never pulled", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id);
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        if (pulled > 200 * 1024 * 1024) controller.close(); // a 200 MiB body, were it read whole
        else controller.enqueue(chunk);
      },
    });
    const request = new Request(`${SANDBOX}/v1/test-things`, {
      method: "POST",
      headers: { ...bearer(key, tenant.id), "content-type": "application/json" },
      body: endless,
      duplex: "half",
    } as RequestInit);
    expect(request.headers.get("content-length")).toBeNull();
    const response = await POST(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe("payload_too_large");
    expect(pulled).toBeLessThanOrEqual(MAX_BODY_BYTES + 4 * chunk.byteLength);
    expect(await executions(tenant.id)).toBe(0);
  });
});
