import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";

// Issuing a charge from the panel (POST /api/panel/contracts/{id}/charges, the "2ª via"): support staff and above,
// the same rules and amounts as POST /v1/charges, the signed-in person as the actor; viewers are refused; another
// tenant's or environment's contract is not found; bad input is 400 and issues nothing.

const session = vi.hoisted(() => ({ user: null as null | { userId: string; email: string; tenantId: string; role: string; memberships: never[] } }));
vi.mock("@/lib/panel/session", () => ({ currentPanelUser: async () => session.user }));

const ORIGIN = "http://localhost:3000";
const post = async (contractId: string, body: unknown, environment = "sandbox", idempotencyKey?: string) => {
  const { POST } = await import("@/app/api/panel/contracts/[id]/charges/route");
  const headers: Record<string, string> = { "content-type": "application/json", origin: ORIGIN, "accept-language": "en", ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}) };
  const res = await POST(
    new Request(`${ORIGIN}/api/panel/contracts/${contractId}/charges?environment=${environment}`, { method: "POST", headers, body: JSON.stringify(body) }),
    { params: Promise.resolve({ id: contractId }) },
  );
  return { status: res.status, body: await res.json(), replayed: res.headers.get("idempotent-replayed") === "true" };
};

describe("charges from the panel", () => {
  it("support issues a boleto for late installments with their late charges; viewers are refused; other tenants' contracts are 404", async () => {
    const { creditTenant } = await import("../credit/flow-helpers");
    const { contractsOf } = await import("../settlements/helpers");
    const { amountsDue, allocatable } = await import("@/lib/collection/allocation");
    const { todayInBrazil } = await import("@/lib/clock");
    const { lateRulesOfTerms } = await import("@/lib/contracts/late-rules");
    const t = await creditTenant();
    const [contractId] = await contractsOf(t, 1);
    const owner = await db().membership.findFirstOrThrow({ where: { tenantId: t.tenant.id, role: "owner" }, include: { user: true } });
    const as = (role: string, tenantId = t.tenant.id) => (session.user = { userId: owner.userId, email: owner.user.email, tenantId, role, memberships: [] });
    const late = await db().installment.findMany({ where: { contractId: contractId!, dueDate: { lt: new Date(`${todayInBrazil()}T00:00:00Z`) } }, orderBy: { number: "asc" }, take: 2 });
    expect(late).toHaveLength(2); // the helper's contracts started in the past
    const ids = late.map((i) => i.id);

    as("viewer");
    expect(await post(contractId!, { method: "boleto", installment_ids: ids })).toMatchObject({ status: 403, body: { code: "forbidden", detail: "Viewers cannot issue charges" } });
    expect(await db().charge.count({ where: { contractId: contractId! } })).toBe(0);

    as("support");
    const today = todayInBrazil();
    const issued = await post(contractId!, { method: "boleto", installment_ids: ids, due_date: today });
    expect(issued.status).toBe(201);
    const contract = await db().contract.findUniqueOrThrow({ where: { id: contractId! } });
    const rules = lateRulesOfTerms(contract.terms);
    const expected = late.reduce((sum, i) => sum + amountsDue(allocatable(i), rules, today).total, 0);
    expect(issued.body).toMatchObject({ object: "charge", contract_id: contractId, method: "boleto", status: "pending", installment_ids: ids, due_date: today, amount: expected, environment: "sandbox" });
    expect(issued.body.boleto.digitable_line).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "charge.created", targetId: issued.body.id } });
    expect([audit.actorType, audit.actorId, audit.actorLabel]).toEqual(["user", owner.userId, owner.user.email]);

    // Bad input: 400, nothing issued (a past due date, Pix options the panel does not take, an unknown method).
    const bad = await post(contractId!, { method: "cash", due_date: "2020-01-01", pix: { kind: "cob" }, contract_id: contractId });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { param: string }) => e.param).sort()).toEqual(["contract_id", "method", "pix"]);
    expect((await post(contractId!, { method: "pix", due_date: "2020-01-01" })).body).toMatchObject({ status: 400, errors: [{ param: "due_date", message: "Must be today or later" }] });
    expect(await db().charge.count({ where: { contractId: contractId! } })).toBe(1);

    // From production: that environment's own rules first (no collection account there yet), never the sandbox contract.
    expect(await post(contractId!, { method: "pix" }, "production")).toMatchObject({ status: 409, body: { code: "collection_not_configured" } });
    const other = await creditTenant();
    as("owner", other.tenant.id);
    expect(await post(contractId!, { method: "pix" })).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(await db().charge.count({ where: { contractId: contractId! } })).toBe(1);
  });

  it("a submission sent again with its Idempotency-Key (the answer was lost) gets the first charge back, not a second one", async () => {
    const { creditTenant } = await import("../credit/flow-helpers");
    const { contractsOf } = await import("../settlements/helpers");
    const t = await creditTenant();
    const [contractId] = await contractsOf(t, 1);
    const owner = await db().membership.findFirstOrThrow({ where: { tenantId: t.tenant.id, role: "owner" }, include: { user: true } });
    session.user = { userId: owner.userId, email: owner.user.email, tenantId: t.tenant.id, role: "support", memberships: [] };
    const [first] = await db().installment.findMany({ where: { contractId: contractId! }, orderBy: { number: "asc" }, take: 1 });
    const body = { method: "pix", installment_ids: [first!.id] };

    const issued = await post(contractId!, body, "sandbox", "panel_0123456789abcdef");
    expect(issued).toMatchObject({ status: 201, replayed: false, body: { object: "charge", method: "pix", installment_ids: [first!.id] } });
    const again = await post(contractId!, body, "sandbox", "panel_0123456789abcdef");
    expect(again).toEqual({ ...issued, replayed: true });
    expect(await db().charge.count({ where: { contractId: contractId! } })).toBe(1);
    expect(await db().auditLog.count({ where: { tenantId: t.tenant.id, action: "charge.created", targetId: issued.body.id } })).toBe(1);

    // The same key with another submission is refused; a new key is a new charge; a malformed key is a 400.
    expect(await post(contractId!, { ...body, method: "boleto" }, "sandbox", "panel_0123456789abcdef")).toMatchObject({ status: 422, body: { code: "idempotency_key_reused" } });
    expect(await post(contractId!, body, "sandbox", "bad key!")).toMatchObject({ status: 400, body: { code: "invalid_request_id" } });
    expect(await db().charge.count({ where: { contractId: contractId! } })).toBe(1);
    expect(await post(contractId!, body, "sandbox", "panel_fedcba9876543210")).toMatchObject({ status: 201, replayed: false });
    expect(await db().charge.count({ where: { contractId: contractId! } })).toBe(2);
  });
});
