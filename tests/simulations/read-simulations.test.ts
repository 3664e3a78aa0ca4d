import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { caller, customer, get, list, PERSONAL, problem, simulate } from "./helpers";

afterAll(() => stopListener());

const notFound = problem("not_found", 404, "The resource was not found", "Simulation not found");

describe("GET /v1/simulations/{id} and GET /v1/simulations", () => {
  it("returns the stored simulation exactly as POST answered it", async () => {
    const who = await caller();
    const created = await simulate(who, { ...PERSONAL, fees: [{ type: "insurance", amount: 25_00, financed: true }] });
    const res = await get(who, created.body.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
    expect(res.text).toBe(created.text); // same key order too
  });

  it("lists newest first, without schedules, across pages with no duplicates or gaps", async () => {
    const who = await caller();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await simulate(who, { ...PERSONAL, requested_amount: 1000_00 + i })).body.id);
    await simulate(await caller("production", undefined, who.tenantId), PERSONAL); // the other environment never shows
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(who, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.body.object).toBe("list");
      for (const item of res.body.data) expect([item.schedule, item.iof_schedule]).toEqual([undefined, undefined]);
      sizes.push(res.body.data.length);
      seen.push(...res.body.data.map((s: { id: string }) => s.id));
      cursor = res.body.next_cursor;
      expect(res.body.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual([...ids].reverse());
    const first = (await list(who, "?limit=1")).body.data[0];
    const full = (await get(who, ids[4]!)).body;
    expect(Object.keys(first)).toEqual(Object.keys(full).filter((k) => k !== "schedule" && k !== "iof_schedule"));
    expect(first).toEqual({ ...full, schedule: undefined, iof_schedule: undefined });
    expect((await list(who, "?limit=101")).status).toBe(400);
  });

  it("filters the list by customer", async () => {
    const who = await caller();
    const cus = await customer(who, "sandbox", null);
    const mine = await simulate(who, { ...PERSONAL, customer_id: cus });
    await simulate(who, PERSONAL);
    const res = await list(who, `?customer_id=${cus}`);
    expect(res.body.data.map((s: { id: string }) => s.id)).toEqual([mine.body.id]);
  });

  it("hides another tenant's and the other environment's simulations (404, nothing listed)", async () => {
    const owner = await caller();
    const { body } = await simulate(owner, PERSONAL);
    const stranger = await caller();
    expect((await get(stranger, body.id)).body).toEqual(notFound);
    expect((await list(stranger)).body.data).toEqual([]);
    const live = await caller("production", undefined, owner.tenantId);
    const res = await get(live, body.id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFound);
    expect((await list(live)).body.data).toEqual([]);
    expect((await get(owner, "sim_01JD0000000000000000000000")).body).toEqual(notFound);
    expect((await get(owner, "cus_01JD0000000000000000000000")).status).toBe(400);
  });

  it("replays a repeated X-Request-Id instead of storing a second simulation", async () => {
    const who = await caller();
    const headers = { "x-request-id": "8d3c6a52-3b1e-4f51-9b7e-0a6c1d2e3f40" };
    const first = await simulate(who, PERSONAL, headers);
    const again = await simulate(who, PERSONAL, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await db().simulation.count({ where: { tenantId: who.tenantId } })).toBe(1);
    const different = await simulate(who, { ...PERSONAL, term: 6 }, headers);
    expect([different.status, different.body.code]).toEqual([422, "idempotency_key_reused"]);
  });

  it("a read-only key can read; a write-only key cannot", async () => {
    const who = await caller();
    const { body } = await simulate(who, PERSONAL);
    const reader = await caller("sandbox", ["simulations:read"], who.tenantId);
    expect((await get(reader, body.id)).status).toBe(200);
    const writer = await caller("sandbox", ["simulations:write"], who.tenantId);
    expect((await list(writer)).status).toBe(403);
  });
});
