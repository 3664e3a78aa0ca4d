import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as getBatch } from "@/app/v1/settlements/batch/[id]/route";
import { POST as batch } from "@/app/v1/settlements/batch/route";
import { db } from "@/lib/db/client";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { creditTenant, type CreditTenant } from "../credit/flow-helpers";
import { contractsOf } from "./helpers";

// POST /v1/settlements/batch in process: mixed items with a result each in request order, replay, key reuse,
// the size limit, racing requests, isolation. The kill -9 case is in batch-crash.test.ts.

const send = (t: CreditTenant, items: unknown[], requestId: string | null = randomUUID(), headers = t.headers) =>
  call(batch, { base: t.base, path: "/v1/settlements/batch", headers: { ...headers, ...(requestId ? { "x-request-id": requestId } : {}) }, json: { items } });

describe("POST /v1/settlements/batch", () => {
  it("applies valid items and reports each failure in request order; a replay answers the same and applies nothing", async () => {
    const t = await creditTenant();
    const [a, b, c] = await contractsOf(t, 3);
    const other = await creditTenant();
    const [foreign] = await contractsOf(other, 1);
    const items = [
      { contract_id: a, type: "full", payment_method: "received" },
      { contract_id: b, type: "bogus", payment_method: "received" },
      { contract_id: c, type: "partial", amount: 1000, reduce: "term", payment_method: "received" },
      { contract_id: foreign, type: "full", payment_method: "received" },
      { contract_id: a, type: "full", payment_method: "received" },
      { contract_id: b, type: "full", payment_method: "boleto" },
    ];
    const requestId = randomUUID();
    const res = await send(t, items, requestId);
    expect(res.status, res.text).toBe(201);
    const settlements = await db().settlement.findMany({ where: { tenantId: t.tenant.id }, orderBy: { createdAt: "asc" } });
    expect(settlements.map((s) => [s.contractId, s.status, s.batchId])).toEqual([
      [a, "completed", res.body.id],
      [b, "pending", res.body.id],
    ]);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^stb_/),
      object: "settlement_batch",
      status: "completed",
      request_id: requestId,
      item_count: 6,
      processed: 6,
      created: 2,
      failed: 4,
      results: [
        { index: 0, contract_id: a, status: "created", settlement_id: settlements[0]!.id, error: null },
        { index: 1, contract_id: b, status: "failed", settlement_id: null, error: expect.objectContaining({ status: 400, code: "validation_error", errors: [expect.objectContaining({ param: "items.1.type", in: "body" })] }) },
        { index: 2, contract_id: c, status: "failed", settlement_id: null, error: expect.objectContaining({ status: 409, code: "open_installments_due" }) },
        { index: 3, contract_id: foreign, status: "failed", settlement_id: null, error: expect.objectContaining({ status: 404, code: "not_found" }) },
        { index: 4, contract_id: a, status: "failed", settlement_id: null, error: expect.objectContaining({ status: 409, code: "contract_not_active" }) },
        { index: 5, contract_id: b, status: "created", settlement_id: settlements[1]!.id, error: null },
      ],
      environment: "sandbox",
      created_at: expect.any(String),
      completed_at: expect.any(String),
    });
    expect(await db().settlement.count({ where: { contractId: foreign } })).toBe(0);

    const replay = await send(t, items, requestId);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(res.body);
    expect(await db().settlement.count({ where: { tenantId: t.tenant.id } })).toBe(2);
    const got = await call(getBatch, { base: t.base, path: `/v1/settlements/batch/${res.body.id}`, headers: t.headers, params: { id: res.body.id } });
    expect(got.body).toEqual(res.body);
    expect((await call(getBatch, { base: other.base, path: `/v1/settlements/batch/${res.body.id}`, headers: other.headers, params: { id: res.body.id } })).status).toBe(404);

    const live = { ...t, base: PRODUCTION, headers: bearer((await newKey(t.tenant.id, "production", ["read", "write"])).key, t.tenant.id) };
    expect((await call(getBatch, { base: PRODUCTION, path: `/v1/settlements/batch/${res.body.id}`, headers: live.headers, params: { id: res.body.id } })).status).toBe(404);
    const fromProduction = await send(live, items.slice(0, 1));
    expect(fromProduction.body.results[0].error).toMatchObject({ status: 404, code: "not_found" }); // a sandbox contract
    const reused = await send(t, items.slice(0, 1), requestId);
    expect(reused.body).toMatchObject({ status: 422, code: "idempotency_key_reused" });

    // Another key of the tenant with the same X-Request-Id (a tracing id seen in a log) runs its own batch: it never
    // gets this one's results replayed; its items meet the contracts as they are now (a settled one, a pending
    // settlement): each fails, nothing is applied twice.
    const second = bearer((await newKey(t.tenant.id, "sandbox", ["read", "write"])).key, t.tenant.id);
    const fromAnotherKey = await send(t, items, requestId, second);
    expect(fromAnotherKey.status).toBe(201);
    expect(fromAnotherKey.headers.get("idempotent-replayed")).toBeNull();
    expect(fromAnotherKey.body).toMatchObject({ request_id: requestId, created: 0, failed: 6 });
    expect(fromAnotherKey.body.id).not.toBe(res.body.id);
    expect(await db().settlementBatch.count({ where: { tenantId: t.tenant.id, requestId } })).toBe(2);
  });

  it("refuses more than 5,000 items (413) and a body without items (400), applying nothing; needs settlements:write", async () => {
    const t = await creditTenant();
    const [a] = await contractsOf(t, 1);
    const many = Array.from({ length: 5001 }, () => ({ contract_id: a, type: "full", payment_method: "received" }));
    const big = await send(t, many);
    expect(big.body).toMatchObject({ status: 413, code: "batch_too_large", max_items: 5000 });
    expect((await send(t, [])).status).toBe(400);
    const reader = await newKey(t.tenant.id, "sandbox", ["settlements:read"]);
    expect((await send(t, many.slice(0, 1), randomUUID(), bearer(reader.key, t.tenant.id))).status).toBe(403);
    expect(await db().settlement.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    expect(await db().settlementBatch.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });

  it("racing: the same request twice at once, and two batches over the same contracts — each contract settled once", async () => {
    const t = await creditTenant();
    const ids = await contractsOf(t, 4);
    const items = ids.map((id) => ({ contract_id: id, type: "full", payment_method: "received" }));
    const requestId = randomUUID();
    const same = await Promise.all([send(t, items, requestId), send(t, items, requestId)]);
    expect(same.map((r) => r.status).sort()).toEqual(expect.arrayContaining([201]));
    for (const r of same) if (r.status !== 201) expect(r.body).toMatchObject({ status: 409, code: "idempotency_in_progress" });
    const twins = await Promise.all([send(t, items), send(t, items)]);
    expect(twins.map((r) => r.status)).toEqual([201, 201]);
    expect(twins.flatMap((r) => r.body.results).every((x: { status: string; error: { code: string } | null }) => x.status === "failed" && x.error?.code === "contract_not_active")).toBe(true);
    for (const id of ids) expect(await db().settlement.count({ where: { contractId: id } })).toBe(1);
    expect(await db().settlementBatchItem.count({ where: { settlementId: { not: null }, contractId: { in: ids } } })).toBe(4);
  });

  it("items run a few at once: two batches racing over the same fresh contracts settle each once; a contract named twice (once padded) by the earlier item", async () => {
    const t = await creditTenant();
    const ids = await contractsOf(t, 6);
    const full = (contract_id: string) => ({ contract_id, type: "full", payment_method: "received" });
    const [forward, backward] = await Promise.all([send(t, ids.map(full)), send(t, [...ids].reverse().map(full))]);
    expect([forward.status, backward.status]).toEqual([201, 201]);
    const created = [...forward.body.results, ...backward.body.results].filter((r: { status: string }) => r.status === "created");
    expect(created.map((r: { contract_id: string }) => r.contract_id).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(await db().settlement.count({ where: { contractId: id } })).toBe(1);

    const [fresh] = await contractsOf(t, 1);
    const twice = await send(t, [full(` ${fresh} `), full(fresh!)]);
    expect(twice.body.results).toEqual([
      { index: 0, contract_id: fresh, status: "created", settlement_id: expect.stringMatching(/^stl_/), error: null },
      { index: 1, contract_id: fresh, status: "failed", settlement_id: null, error: expect.objectContaining({ status: 409, code: "contract_not_active" }) },
    ]);
  });
});
