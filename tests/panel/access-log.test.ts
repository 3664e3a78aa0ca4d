import { describe, expect, it, vi } from "vitest";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { db } from "@/lib/db/client";
import { call } from "../helpers/http";

// Who opened a customer's data in the panel (lib/panel/access-log.ts, LC 105/2001): the customer file, a proposal's
// dossier and a contract's file each write one `customer.viewed` audit row about the customer — per person, screen
// object and 10 minutes — and a screen that answers 404 writes none.

const session = vi.hoisted(() => ({ user: null as null | { userId: string; email: string; tenantId: string; role: string; memberships: never[] } }));
vi.mock("@/lib/panel/session", () => ({ currentPanelUser: async () => session.user }));

const ORIGIN = "http://localhost:3000";
type Screen = "customers" | "proposals" | "contracts";
async function open(screen: Screen, id: string, environment = "sandbox"): Promise<number> {
  const route = {
    customers: () => import("@/app/api/panel/customers/[id]/route"),
    proposals: () => import("@/app/api/panel/proposals/[id]/route"),
    contracts: () => import("@/app/api/panel/contracts/[id]/route"),
  }[screen];
  const { GET } = await route();
  const res = await GET(new Request(`${ORIGIN}/api/panel/${screen}/${id}?environment=${environment}`, { headers: { "accept-language": "en" } }), { params: Promise.resolve({ id }) });
  return res.status;
}

describe("the panel's customer access log", () => {
  it("records who opened a customer's data, on which screen, once per person and object in 10 minutes; not a 404", async () => {
    const { creditTenant, signedProposal } = await import("../credit/flow-helpers");
    const t = await creditTenant();
    const { proposal, customer } = await signedProposal(t);
    const issued = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
    expect(issued.status, issued.text).toBe(201);
    const [contractId, customerId] = [issued.body.id as string, customer.id];
    const owner = await db().membership.findFirstOrThrow({ where: { tenantId: t.tenant.id, role: "owner" }, include: { user: true } });
    session.user = { userId: owner.userId, email: owner.user.email, tenantId: t.tenant.id, role: "support", memberships: [] };

    // Each screen twice (a refetch): one row each.
    for (const [screen, id] of [["customers", customerId], ["customers", customerId], ["proposals", proposal.id], ["proposals", proposal.id], ["contracts", contractId], ["contracts", contractId]] as const) {
      expect(await open(screen, id), `${screen} ${id}`).toBe(200);
    }
    // Not found (from production, or another tenant's session): nothing written.
    expect(await open("customers", customerId, "production")).toBe(404);
    const other = await creditTenant();
    session.user = { ...session.user, tenantId: other.tenant.id };
    expect(await open("contracts", contractId)).toBe(404);

    const rows = await db().auditLog.findMany({ where: { action: "customer.viewed", targetId: customerId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(rows.map((r) => ({ tenant: r.tenantId, environment: r.environment, actor: [r.actorType, r.actorId, r.actorLabel], target: [r.targetType, r.targetId], metadata: r.metadata }))).toEqual(
      [
        { via: "customer_file", object_id: customerId },
        { via: "proposal", object_id: proposal.id },
        { via: "contract", object_id: contractId },
      ].map((metadata) => ({ tenant: t.tenant.id, environment: "sandbox", actor: ["user", owner.userId, owner.user.email], target: ["customer", customerId], metadata })),
    );
    expect(await db().auditLog.count({ where: { tenantId: other.tenant.id, action: "customer.viewed" } })).toBe(0);

    // Another person, or the same one after the window: a row of their own.
    session.user = { userId: "usr_SOMEONEELSE0000000000000000", email: "someone@example.com", tenantId: t.tenant.id, role: "viewer", memberships: [] };
    expect(await open("customers", customerId)).toBe(200);
    await db().auditLog.updateMany({ where: { action: "customer.viewed", targetId: customerId, actorLabel: owner.user.email }, data: { createdAt: new Date(Date.now() - 11 * 60_000) } });
    session.user = { userId: owner.userId, email: owner.user.email, tenantId: t.tenant.id, role: "support", memberships: [] };
    expect(await open("customers", customerId)).toBe(200);
    const byActor = await db().auditLog.groupBy({ by: ["actorLabel"], where: { action: "customer.viewed", targetId: customerId, metadata: { equals: { via: "customer_file", object_id: customerId } } }, _count: true });
    expect(Object.fromEntries(byActor.map((g) => [g.actorLabel, g._count]))).toEqual({ [owner.user.email]: 2, "someone@example.com": 1 });
  });
});
