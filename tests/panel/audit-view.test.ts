import { describe, expect, it } from "vitest";
import { auditList, AuditQuery } from "@/lib/panel/audit-view";
import { newKey, newTenant } from "../helpers/factory";

// The panel's audit log (issue 12): the tenant's own rows only, newest first, filtered by action (or prefix),
// actor, environment and target, paged by cursor.

describe("the panel's audit log", () => {
  it("lists the tenant's rows with filters and pages", async () => {
    const { tenant } = await newTenant();
    const other = await newTenant();
    const sandbox = await newKey(tenant.id, "sandbox");
    const live = await newKey(tenant.id, "production");
    await newKey(other.tenant.id, "sandbox");
    const list = async (q: Record<string, unknown>) => (await auditList(tenant.id, AuditQuery.parse(q))).data;
    const all = await list({});
    expect(all.map((r) => r.action).slice(0, 2)).toEqual(["api_key.created", "api_key.created"]);
    expect(all.map((r) => r.action)).toContain("tenant.created");
    expect((await list({ action: "api_key." })).map((r) => r.target.id).sort()).toEqual([sandbox.apiKey.id, live.apiKey.id].sort());
    expect((await list({ action: "api_key.created", environment: "production" })).map((r) => r.target.id)).toEqual([live.apiKey.id]);
    expect((await list({ environment: "none" })).map((r) => r.action)).toContain("tenant.created");
    expect((await list({ actor: "TEST" })).length).toBe(all.length); // the factory's actor label is "test"
    expect(await list({ actor: "nobody" })).toEqual([]);
    expect((await list({ target: sandbox.apiKey.id })).map((r) => r.action)).toEqual(["api_key.created"]);
    expect(await list({ from: "2999-01-01" })).toEqual([]);
    const first = await auditList(tenant.id, AuditQuery.parse({ limit: 1 }));
    const second = await auditList(tenant.id, AuditQuery.parse({ limit: 1, cursor: first.next_cursor }));
    expect(second.data[0]!.id).not.toBe(first.data[0]!.id);
    const others = (await auditList(other.tenant.id, AuditQuery.parse({}))).data.map((r) => r.target.id);
    expect(others).not.toContain(sandbox.apiKey.id);
  });
});
