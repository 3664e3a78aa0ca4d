import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { caller, get, getClient, list, patch, PERSON, post, problem } from "./fixtures";

afterAll(() => stopListener());

const notFound = problem("not_found", 404, "The resource was not found", "Customer not found");

describe("customer isolation (OWASP API1: tenant and environment)", () => {
  it("answers 404 with none of the data when tenant A asks for tenant B's customer, and changes nothing", async () => {
    const a = await caller();
    const b = await caller();
    const created = await post(b, PERSON);
    const id = created.body.id as string;
    for (const res of [await get(a, id), await getClient(a, id), await patch(a, id, { name: "Hijacked" })]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
      expect(res.text).not.toContain("Maria");
      expect(res.text).not.toContain("52998224725");
    }
    const listed = await list(a, "?document=52998224725");
    expect(listed.body).toEqual({ object: "list", data: [], has_more: false, next_cursor: null });
    expect(await get(b, id)).toMatchObject({ status: 200, body: created.body });
    expect(await db().auditLog.count({ where: { targetId: id, action: "customer.updated" } })).toBe(0);
  });

  it("answers 404 when a sandbox key asks for a production customer of the same tenant, and the reverse", async () => {
    const live = await caller("production");
    const test = await caller("sandbox", undefined, live.tenantId);
    const prod = await post(live, PERSON);
    expect(prod.body.environment).toBe("production");
    expect((await get(live, prod.body.id)).status).toBe(200);
    const sandboxView = await get(test, prod.body.id);
    expect(sandboxView.status).toBe(404);
    expect(sandboxView.body).toEqual(notFound);
    expect((await patch(test, prod.body.id, { name: "X" })).body).toEqual(notFound);
    expect((await list(test)).body.data).toEqual([]);

    const sandboxCustomer = await post(test, { document: "11222333000181", name: "Sandbox Co" });
    expect((await get(live, sandboxCustomer.body.id)).body).toEqual(notFound);
  });

  it("refuses a read-only key on PATCH with 403 and changes nothing", async () => {
    const writer = await caller();
    const reader = await caller("sandbox", ["read"], writer.tenantId);
    const created = await post(writer, PERSON);
    const res = await patch(reader, created.body.id, { name: "Changed" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(problem("insufficient_permissions", 403, "The credential lacks the required permission", "This operation requires the customers:write permission"));
    expect((await get(reader, created.body.id)).body).toEqual(created.body);
  });
});
