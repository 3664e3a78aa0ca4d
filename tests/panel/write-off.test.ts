import { describe, expect, it, vi } from "vitest";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { db } from "@/lib/db/client";
import { call } from "../helpers/http";

// Writing a contract off from the panel (POST /api/panel/contracts/{id}/write-off): owners and admins only, the same
// rules as POST /v1/contracts/{id}/write-off, the signed-in person as the actor; another tenant's contract is not found.

const session = vi.hoisted(() => ({ user: null as null | { userId: string; email: string; tenantId: string; role: string; memberships: never[] } }));
vi.mock("@/lib/panel/session", () => ({ currentPanelUser: async () => session.user }));

const ORIGIN = "http://localhost:3000";
const post = async (contractId: string, body: unknown, environment = "sandbox") => {
  const { POST } = await import("@/app/api/panel/contracts/[id]/write-off/route");
  const res = await POST(
    new Request(`${ORIGIN}/api/panel/contracts/${contractId}/write-off?environment=${environment}`, { method: "POST", headers: { "content-type": "application/json", origin: ORIGIN, "accept-language": "en" }, body: JSON.stringify(body) }),
    { params: Promise.resolve({ id: contractId }) },
  );
  return { status: res.status, body: await res.json() };
};

describe("write-off from the panel", () => {
  it("owners and admins write a late contract off (audited as the person, event with the reason); support and viewers are refused; other tenants' contracts are 404", async () => {
    const { creditTenant, lateContractDates, signedProposal } = await import("../credit/flow-helpers");
    const t = await creditTenant();
    const { proposal } = await signedProposal(t, lateContractDates()); // installments late today
    const issued = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
    const contractId = issued.body.id as string;
    const owner = await db().membership.findFirstOrThrow({ where: { tenantId: t.tenant.id, role: "owner" }, include: { user: true } });
    const as = (role: string, tenantId = t.tenant.id) => (session.user = { userId: owner.userId, email: owner.user.email, tenantId, role, memberships: [] });
    const reason = "No payment for 180 days; collection exhausted";

    for (const role of ["support", "viewer"]) {
      as(role);
      expect(await post(contractId, { reason })).toMatchObject({ status: 403, body: { code: "forbidden", detail: "Only owners and admins write contracts off" } });
    }
    as("admin");
    const short = await post(contractId, { reason: " x " });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([expect.objectContaining({ param: "reason", in: "body" })]);
    // The sandbox contract is not found from production, nor by another tenant.
    expect(await post(contractId, { reason }, "production")).toMatchObject({ status: 404, body: { code: "not_found" } });
    const other = await creditTenant();
    as("owner", other.tenant.id);
    expect(await post(contractId, { reason })).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect((await db().contract.findUniqueOrThrow({ where: { id: contractId } })).status).toBe("active");
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "contract.written_off" } })).toBe(0);

    as("admin");
    const written = await post(contractId, { reason });
    expect(written.status).toBe(200);
    expect(written.body).toMatchObject({ id: contractId, status: "written_off", outstanding_balance: issued.body.outstanding_balance, environment: "sandbox" });
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "contract.written_off" } });
    expect([audit.actorType, audit.actorId, audit.actorLabel, audit.targetId]).toEqual(["user", owner.userId, owner.user.email, contractId]);
    expect(audit.metadata).toMatchObject({ from: "active", to: "written_off", reason });
    const event = await db().outboxEvent.findFirstOrThrow({ where: { tenantId: t.tenant.id, type: "contract.written_off" } });
    expect(event.payload).toMatchObject({ id: contractId, status: "written_off", reason });
    // Twice is a conflict, and changes nothing.
    expect(await post(contractId, { reason })).toMatchObject({ status: 409, body: { code: "invalid_transition", current_status: "written_off" } });
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "contract.written_off" } })).toBe(1);
  });
});
