import { describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as writeOff } from "@/app/v1/contracts/[id]/write-off/route";
import { GET as getQuote } from "@/app/v1/contracts/[id]/payoff-quote/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { POST as createAssignment } from "@/app/v1/assignments/route";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { addMonths } from "@/lib/finance";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { creditTenant, lateContractDates, signedProposal, type CreditTenant } from "./flow-helpers";

// POST /v1/contracts/{id}/write-off: the lender writes off a contract in default, with its reason (audit, event). The
// debt stays the borrower's: it is still collected (charges, payments, quotes, settlements) and closes when paid off.

async function contract(t: CreditTenant, late: boolean) {
  const dates = late ? lateContractDates() : { disbursement_date: todayInBrazil(), first_due_date: addMonths(todayInBrazil(), 1) };
  const { proposal } = await signedProposal(t, dates);
  return (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body as { id: string; outstanding_balance: number };
}
const writeOffOf = (t: CreditTenant, id: string, json: unknown = { reason: "No payment for 180 days; collection exhausted" }, headers = t.headers) =>
  call(writeOff, { base: t.base, path: `/v1/contracts/${id}/write-off`, headers, params: { id }, json });

describe("writing a contract off", () => {
  it("a late contract: written_off with its reason, balance unchanged; still collected, and settled when recovered", async () => {
    const t = await creditTenant();
    const late = await contract(t, true);
    const res = await writeOffOf(t, late.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: late.id, status: "written_off", outstanding_balance: late.outstanding_balance });
    const event = await db().outboxEvent.findFirstOrThrow({ where: { tenantId: t.tenant.id, type: "contract.written_off" } });
    expect(event.payload).toMatchObject({ id: late.id, status: "written_off", reason: "No payment for 180 days; collection exhausted" });
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "contract.written_off" } });
    expect(audit).toMatchObject({ targetId: late.id, metadata: { from: "active", to: "written_off", reason: "No payment for 180 days; collection exhausted" } });
    expect((await writeOffOf(t, late.id)).body).toMatchObject({ status: 409, code: "invalid_transition" });

    // A recovery: a charge is still issued and paid; the payoff quote and a full settlement close it.
    const charge = (await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: late.id, method: "pix" } })).body;
    expect(charge.status).toBe("pending");
    expect((await call(pay, { base: t.base, path: `/v1/sandbox/charges/${charge.id}/pay`, headers: t.headers, params: { id: charge.id }, json: {} })).body.charge.status).toBe("paid");
    const quote = await call(getQuote, { base: t.base, path: `/v1/contracts/${late.id}/payoff-quote`, headers: t.headers, params: { id: late.id } });
    expect(quote.status).toBe(200);
    const settled = await call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json: { contract_id: late.id, type: "full", payment_method: "received" } });
    expect(settled.body).toMatchObject({ status: "completed", amount: quote.body.amount });
    expect((await db().contract.findUniqueOrThrow({ where: { id: late.id } })).status).toBe("settled");
  });

  it("refuses a performing contract, one on offer to an assignee, a short reason, another tenant's and a read-only key; nothing changes", async () => {
    const t = await creditTenant();
    const performing = await contract(t, false);
    expect((await writeOffOf(t, performing.id)).body).toMatchObject({ status: 409, code: "invalid_transition", detail: "Only a contract in default is written off: none of its installments is late" });
    const offered = await contract(t, true);
    expect((await call(createAssignment, { base: t.base, path: "/v1/assignments", headers: t.headers, json: { assignee: { name: "Fundo", document: "11.222.333/0001-81" }, contract_ids: [offered.id], price: 1000 } })).status).toBe(201);
    expect((await writeOffOf(t, offered.id)).body).toMatchObject({ status: 409, code: "conflict" });
    expect((await writeOffOf(t, offered.id, { reason: "x" })).body.errors).toEqual([expect.objectContaining({ param: "reason", in: "body" })]);
    const other = await creditTenant();
    expect((await writeOffOf(other, offered.id)).status).toBe(404);
    const { key } = await newKey(t.tenant.id, "sandbox", ["read"]);
    expect((await writeOffOf(t, offered.id, undefined, bearer(key, t.tenant.id))).status).toBe(403);
    // The same tenant's production credential, on the production address, does not see a sandbox contract.
    const { key: live } = await newKey(t.tenant.id, "production", ["read", "write"]);
    const fromProduction = await call(writeOff, { base: PRODUCTION, path: `/v1/contracts/${offered.id}/write-off`, headers: bearer(live, t.tenant.id), params: { id: offered.id }, json: { reason: "No payment for 180 days" } });
    expect(fromProduction.body).toMatchObject({ status: 404, code: "not_found" });
    const rows = await db().contract.findMany({ where: { id: { in: [performing.id, offered.id] } } });
    expect(rows.map((r) => r.status)).toEqual(["active", "active"]);
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "contract.written_off" } })).toBe(0);
  });
});
