import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { newTenant } from "../helpers/factory";

// Saving the collection account from the panel (PUT /api/panel/collection-account): the form sends the `updated_at` it
// showed; when the account changed since (another admin saved), nothing is saved and the answer is 409 — a stale form
// would put back the agreement or Pix receiver borrowers pay to.

const session = vi.hoisted(() => ({ user: null as null | { userId: string; email: string; tenantId: string; role: string; memberships: never[] } }));
vi.mock("@/lib/panel/session", () => ({ currentPanelUser: async () => session.user }));

const ORIGIN = "http://localhost:3000";
const put = async (body: unknown) => {
  const { PUT } = await import("@/app/api/panel/collection-account/route");
  const res = await PUT(new Request(`${ORIGIN}/api/panel/collection-account`, { method: "PUT", headers: { "content-type": "application/json", origin: ORIGIN, "accept-language": "en" }, body: JSON.stringify(body) }), {
    params: Promise.resolve({}),
  });
  return { status: res.status, body: await res.json() };
};
const account = (agreement: string, expected: string | null) => ({
  environment: "production",
  bank_code: "001",
  agreement,
  wallet: "17",
  beneficiary_name: "Crédito Exemplo S.A.",
  beneficiary_document: "11.222.333/0001-81",
  city: "São Paulo",
  pix_location_base: "pix.example.com.br/qr/v2",
  expected_updated_at: expected,
});

describe("the collection account from the panel", () => {
  it("saves over what the form showed; a form showing an older account (or none) is 409 and changes nothing", async () => {
    const { tenant, ownerUserId } = await newTenant();
    session.user = { userId: ownerUserId, email: "owner@panel.test", tenantId: tenant.id, role: "owner", memberships: [] };
    const agreement = () => String(1_000_000 + Math.floor(Math.random() * 8_999_999));
    const first = await put(account(agreement(), null));
    expect(first.status).toBe(200);
    const saved = first.body as { agreement: string; updated_at: string };

    // Admin A saves over it; admin B's form, loaded before, still shows the first one.
    const a = await put(account(agreement(), saved.updated_at));
    expect(a.status).toBe(200);
    const stale = await put(account(agreement(), saved.updated_at));
    expect(stale).toMatchObject({ status: 409, body: { code: "conflict", updated_at: a.body.updated_at } });
    const created = await put(account(agreement(), null)); // "there was none" is stale too
    expect(created.status).toBe(409);
    const row = await db().collectionAccount.findUniqueOrThrow({ where: { tenantId_environment: { tenantId: tenant.id, environment: "production" } } });
    expect(row.agreement).toBe(a.body.agreement);
    expect(await db().auditLog.count({ where: { tenantId: tenant.id, action: { startsWith: "collection_account." } } })).toBe(2);

    const missing = await put({ ...account(agreement(), null), expected_updated_at: undefined });
    expect(missing.status).toBe(400);
  });
});
