import { describe, expect, it } from "vitest";
import { writeAudit } from "@/lib/audit/audit-log";
import { createApiKey } from "@/lib/auth/api-keys";
import { db } from "@/lib/db/client";
import { auditList, AuditQuery } from "@/lib/panel/audit-view";
import { actor, newClient, newKey, newTenant } from "../helpers/factory";

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
    expect(await list({ from: "2199-12-31" })).toEqual([]);
    const first = await auditList(tenant.id, AuditQuery.parse({ limit: 1 }));
    const second = await auditList(tenant.id, AuditQuery.parse({ limit: 1, cursor: first.next_cursor }));
    expect(second.data[0]!.id).not.toBe(first.data[0]!.id);
    const others = (await auditList(other.tenant.id, AuditQuery.parse({}))).data.map((r) => r.target.id);
    expect(others).not.toContain(sandbox.apiKey.id);
  });

  it("names a key or OAuth client by its name (and its last characters), and finds its rows by that name", async () => {
    const { tenant } = await newTenant();
    const other = await newTenant();
    const { apiKey } = await createApiKey({ tenantId: tenant.id, environment: "sandbox", name: "ERP integração", permissions: ["read", "write"], actor });
    const { client } = await newClient(tenant.id, "production");
    const foreign = await newKey(other.tenant.id, "sandbox");
    const byKey = { type: "api_key" as const, id: apiKey.id, label: `api_key:${apiKey.id}` };
    const byClient = { type: "oauth_client" as const, id: client.id, label: `oauth_client:${client.id}` };
    // Rows written by each credential — and one naming another tenant's key, which is never resolved here.
    await db().$transaction(async (tx) => {
      await writeAudit(tx, { tenantId: tenant.id, environment: "sandbox", actor: byKey, action: "customer.created", target: { type: "customer", id: "cus_a" } });
      await writeAudit(tx, { tenantId: tenant.id, environment: "production", actor: byClient, action: "customer.created", target: { type: "customer", id: "cus_b" } });
      await writeAudit(tx, { tenantId: tenant.id, environment: "sandbox", actor: { type: "api_key", id: foreign.apiKey.id, label: `api_key:${foreign.apiKey.id}` }, action: "customer.created", target: { type: "customer", id: "cus_c" } });
    });
    const list = async (q: Record<string, unknown>) => (await auditList(tenant.id, AuditQuery.parse(q))).data;
    const actors = Object.fromEntries((await list({ action: "customer.created" })).map((r) => [r.target.id, r.actor]));
    expect(actors).toEqual({
      cus_a: { type: "api_key", label: `api_key:${apiKey.id}`, name: `ERP integração (…${apiKey.last4})` },
      cus_b: { type: "oauth_client", label: `oauth_client:${client.id}`, name: `test client (${client.client_id})` },
      cus_c: { type: "api_key", label: `api_key:${foreign.apiKey.id}`, name: null },
    });
    expect((await list({ actor: "erp INTEGRA" })).map((r) => r.target.id)).toEqual(["cus_a"]);
    expect((await list({ actor: "test client" })).map((r) => r.target.id)).toEqual(["cus_b"]);
    expect((await list({ actor: `api_key:${apiKey.id}` })).map((r) => r.target.id)).toEqual(["cus_a"]);
    expect(await list({ actor: "test key" })).toEqual([]); // the other tenant's key is named so: not this tenant's
  });
});
