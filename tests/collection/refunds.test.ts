import { describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { GET as getContract } from "@/app/v1/contracts/[id]/route";
import { GET as getRefund } from "@/app/v1/refunds/[id]/route";
import { GET as listRefunds, POST as createRefund } from "@/app/v1/refunds/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { creditTenant, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// POST /v1/refunds: the borrower's credit (money beyond what was owed) paid back and recorded — the contract's
// credit_balance down in the same transaction, audit and `refund.created`; never below 0; isolated like every object.

async function contractWithCredit(t: CreditTenant, extra: number) {
  const { proposal } = await signedProposal(t, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
  const contract = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body;
  const installments = await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" } });
  const charge = (await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.id, method: "pix", due_date: todayInBrazil(), installment_ids: installments.map((i) => i.id) } })).body;
  const paid = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${charge.id}/pay`, headers: t.headers, json: { amount: charge.amount + extra }, params: { id: charge.id } });
  expect(paid.status).toBe(200);
  return contract as { id: string };
}

const refund = (t: CreditTenant, json: unknown, headers: Record<string, string> = {}) => call(createRefund, { base: t.base, path: "/v1/refunds", headers: { ...t.headers, ...headers }, json });
const contractNow = async (t: CreditTenant, id: string) => (await call(getContract, { base: t.base, path: `/v1/contracts/${id}`, headers: t.headers, params: { id } })).body;

describe("refunds of a contract's credit", () => {
  it("records a refund: credit down, audit, event; the rest later by default; never more than the credit", async () => {
    const t = await creditTenant();
    const contract = await contractWithCredit(t, 5000);
    expect(await contractNow(t, contract.id)).toMatchObject({ status: "settled", credit_balance: 5000 });

    const first = await refund(t, { contract_id: contract.id, amount: 2000, method: "pix", reference: "E00038166202612091402s0ABCDEFGHIJ", refunded_on: todayInBrazil() });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^rfd_[0-9A-Z]{26}$/),
      object: "refund",
      contract_id: contract.id,
      assignment_id: null,
      amount: 2000,
      method: "pix",
      reference: "E00038166202612091402s0ABCDEFGHIJ",
      credit_after: 3000,
      refunded_on: todayInBrazil(),
      environment: "sandbox",
      created_at: expect.any(String),
    });
    expect(await contractNow(t, contract.id)).toMatchObject({ status: "settled", credit_balance: 3000 });

    // More than what is left: 409, nothing changes.
    const tooMuch = await refund(t, { contract_id: contract.id, amount: 3001, method: "ted" });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toMatchObject({ code: "insufficient_credit", credit_balance: 3000 });
    // The rest (default amount), then nothing left.
    const rest = await refund(t, { contract_id: contract.id, method: "ted" });
    expect(rest.body).toMatchObject({ amount: 3000, credit_after: 0, reference: null });
    const none = await refund(t, { contract_id: contract.id, method: "ted" });
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ code: "insufficient_credit", credit_balance: 0, detail: "The contract's refundable credit is 0 centavos: nothing to refund" });

    expect(await db().refund.count({ where: { contractId: contract.id } })).toBe(2);
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "refund.created" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(events.map((e) => e.payload)).toEqual([first.body, rest.body]);
    const audits = await db().auditLog.findMany({ where: { tenantId: t.tenant.id, action: "refund.created" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(audits.map((a) => a.metadata)).toEqual([
      { refund_id: first.body.id, amount: 2000, method: "pix", credit_before: 5000, credit_after: 3000 },
      { refund_id: rest.body.id, amount: 3000, method: "ted", credit_before: 3000, credit_after: 0 },
    ]);

    const listed = await call(listRefunds, { base: t.base, path: `/v1/refunds?contract_id=${contract.id}`, headers: t.headers });
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([rest.body.id, first.body.id]);
    const one = await call(getRefund, { base: t.base, path: `/v1/refunds/${first.body.id}`, headers: t.headers, params: { id: first.body.id } });
    expect(one.body).toEqual(first.body);
  });

  it("is idempotent by X-Request-Id, and two refunds at once never take the credit below 0", async () => {
    const t = await creditTenant();
    const contract = await contractWithCredit(t, 1000);
    const headers = { "x-request-id": crypto.randomUUID() };
    const a = await refund(t, { contract_id: contract.id, method: "pix" }, headers);
    const b = await refund(t, { contract_id: contract.id, method: "pix" }, headers);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get("idempotent-replayed")).toBe("true");

    const other = await contractWithCredit(t, 700);
    const racing = await Promise.all([0, 1, 2].map(() => refund(t, { contract_id: other.id, amount: 400, method: "ted" })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await contractNow(t, other.id)).toMatchObject({ credit_balance: 300 });
  });

  it("rejects bad input, a future date and another tenant's or environment's contract, changing nothing", async () => {
    const t = await creditTenant();
    const contract = await contractWithCredit(t, 900);
    const bad = await refund(t, { contract_id: contract.id, amount: 0, method: "cash", extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { param: string }) => e.param).sort()).toEqual(["amount", "extra", "method"]);
    const future = await refund(t, { contract_id: contract.id, method: "pix", refunded_on: "2199-01-01" });
    expect(future.status).toBe(400);
    expect(future.body.errors).toEqual([{ param: "refunded_on", in: "body", message: "Must not be after today (Brasília)" }]);

    const other = await creditTenant();
    expect((await refund(other, { contract_id: contract.id, method: "pix" })).status).toBe(404);
    const { key } = await newKey(t.tenant.id, "production", ["read", "write"]);
    const prod = await call(createRefund, { base: PRODUCTION, path: "/v1/refunds", headers: bearer(key, t.tenant.id), json: { contract_id: contract.id, method: "pix" } });
    expect(prod.status).toBe(404);
    const reader = await newKey(t.tenant.id, "sandbox", ["collections:read"]);
    const forbidden = await call(createRefund, { base: t.base, path: "/v1/refunds", headers: bearer(reader.key, t.tenant.id), json: { contract_id: contract.id, method: "pix" } });
    expect(forbidden.status).toBe(403);
    const made = await refund(t, { contract_id: contract.id, method: "pix" });
    expect((await call(getRefund, { base: other.base, path: `/v1/refunds/${made.body.id}`, headers: other.headers, params: { id: made.body.id } })).status).toBe(404);

    expect(await db().refund.count({ where: { contractId: contract.id } })).toBe(1);
    expect(await contractNow(t, contract.id)).toMatchObject({ credit_balance: 0 });
  });
});
