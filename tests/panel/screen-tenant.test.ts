import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";

// The active tenant is a cookie every tab shares. A page still showing tenant A after another tab switched to B sends
// A as the tenant it shows (X-Panel-Tenant): the panel refuses its reads and writes (409 `tenant_changed`) instead of
// doing them on B under A's screen, and changes nothing.

const session = vi.hoisted(() => ({ tenantId: "", userId: "" }));
vi.mock("@/lib/panel/session", async () => {
  const { newTenant } = await import("@/tests/helpers/factory");
  const { tenant, ownerUserId } = await newTenant();
  Object.assign(session, { tenantId: tenant.id, userId: ownerUserId });
  return { currentPanelUser: async () => ({ userId: ownerUserId, email: "owner@panel.test", tenantId: tenant.id, role: "owner", memberships: [] }) };
});

const createKey = async (screen: string | null) => {
  const { POST } = await import("@/app/api/panel/api-keys/route");
  const headers: Record<string, string> = { "content-type": "application/json", origin: "http://localhost:3000", ...(screen === null ? {} : { "x-panel-tenant": screen }) };
  return POST(new Request("http://localhost:3000/api/panel/api-keys", { method: "POST", headers, body: JSON.stringify({ name: "from a tab", environment: "sandbox", permissions: ["read"] }) }), { params: Promise.resolve({}) });
};

describe("the tenant a panel page shows", () => {
  it("refuses a write from a page showing another tenant than the active one, and changes nothing", async () => {
    const stale = await createKey("ten_01JDSTALETENANT0000000000");
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ code: "tenant_changed", status: 409 });
    expect(await db().apiKey.count({ where: { tenantId: session.tenantId } })).toBe(0);
  });

  it("refuses a read from such a page too (it would show the active tenant's rows under the other's screen)", async () => {
    const { GET } = await import("@/app/api/panel/api-keys/route");
    const res = await GET(new Request("http://localhost:3000/api/panel/api-keys", { headers: { "x-panel-tenant": "ten_01JDSTALETENANT0000000000" } }), { params: Promise.resolve({}) });
    expect(res.status).toBe(409);
  });

  it("serves the page showing the active tenant, and a request that names none", async () => {
    expect((await createKey(session.tenantId)).status).toBe(201);
    expect((await createKey(null)).status).toBe(201);
    expect(await db().apiKey.count({ where: { tenantId: session.tenantId } })).toBe(2);
  });
});
