import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";

// Recording a refund from the panel (POST /api/panel/contracts/{id}/refunds): owners and admins only, the same rules
// as POST /v1/refunds, the signed-in person as the actor; another tenant's contract is not found.

const session = vi.hoisted(() => ({ user: null as null | { userId: string; email: string; tenantId: string; role: string; memberships: never[] } }));
vi.mock("@/lib/panel/session", () => ({ currentPanelUser: async () => session.user }));

const ORIGIN = "http://localhost:3000";
const post = async (contractId: string, body: unknown, environment = "sandbox") => {
  const { POST } = await import("@/app/api/panel/contracts/[id]/refunds/route");
  const res = await POST(
    new Request(`${ORIGIN}/api/panel/contracts/${contractId}/refunds?environment=${environment}`, { method: "POST", headers: { "content-type": "application/json", origin: ORIGIN, "accept-language": "en" }, body: JSON.stringify(body) }),
    { params: Promise.resolve({ id: contractId }) },
  );
  return { status: res.status, body: await res.json() };
};

describe("refunds from the panel", () => {
  it("owners and admins record them (credit down, audited as the person); support and viewers are refused; other tenants' contracts are 404", async () => {
    const { creditTenant } = await import("../credit/flow-helpers");
    const { contractsOf } = await import("../settlements/helpers");
    const t = await creditTenant();
    const [contractId] = await contractsOf(t, 1);
    await db().contract.update({ where: { id: contractId! }, data: { creditBalance: 5000n } });
    const owner = await db().membership.findFirstOrThrow({ where: { tenantId: t.tenant.id, role: "owner" }, include: { user: true } });
    const as = (role: string, tenantId = t.tenant.id) => (session.user = { userId: owner.userId, email: owner.user.email, tenantId, role, memberships: [] });

    for (const role of ["support", "viewer"]) {
      as(role);
      const refused = await post(contractId!, { amount: 1000, method: "pix", expected_credit_balance: 5000 });
      expect(refused).toMatchObject({ status: 403, body: { code: "forbidden", detail: "Only owners and admins record refunds" } });
    }
    expect((await db().contract.findUniqueOrThrow({ where: { id: contractId! } })).creditBalance).toBe(5000n);

    as("admin");
    const recorded = await post(contractId!, { amount: 1250, method: "ted", reference: "TED-1", expected_credit_balance: 5000 });
    expect(recorded.status).toBe(201);
    expect(recorded.body).toMatchObject({ object: "refund", contract_id: contractId, amount: 1250, method: "ted", reference: "TED-1", credit_after: 3750, environment: "sandbox" });
    expect((await db().contract.findUniqueOrThrow({ where: { id: contractId! } })).creditBalance).toBe(3750n);
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "refund.created" } });
    expect([audit.actorType, audit.actorId, audit.actorLabel]).toEqual(["user", owner.userId, owner.user.email]);

    // The same form sent again (a second click): the credit it showed is gone, nothing is recorded.
    const twice = await post(contractId!, { amount: 1250, method: "ted", reference: "TED-1", expected_credit_balance: 5000 });
    expect(twice).toMatchObject({ status: 409, body: { code: "conflict", credit_balance: 3750 } });
    expect(await db().refund.count({ where: { contractId: contractId! } })).toBe(1);

    const tooMuch = await post(contractId!, { amount: 3751, method: "pix", expected_credit_balance: 3750 });
    expect(tooMuch).toMatchObject({ status: 409, body: { code: "insufficient_credit", credit_balance: 3750, refundable: 3750 } });
    const bad = await post(contractId!, { amount: 0, method: "cash", contract_id: contractId });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { param: string }) => e.param).sort()).toEqual(["amount", "contract_id", "expected_credit_balance", "method"]);

    // The sandbox contract is not found from production.
    expect(await post(contractId!, { amount: 100, method: "pix", expected_credit_balance: 3750 }, "production")).toMatchObject({ status: 404, body: { code: "not_found" } });
    const other = await creditTenant();
    as("owner", other.tenant.id);
    expect(await post(contractId!, { amount: 100, method: "pix", expected_credit_balance: 3750 })).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect((await db().contract.findUniqueOrThrow({ where: { id: contractId! } })).creditBalance).toBe(3750n);
  });
});
