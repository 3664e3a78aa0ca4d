import { afterAll, describe, expect, it } from "vitest";
import { POST as issue, GET as listContracts } from "@/app/v1/contracts/route";
import { GET as getContract } from "@/app/v1/contracts/[id]/route";
import { POST as cancelContract } from "@/app/v1/contracts/[id]/cancel/route";
import { GET as contractInstallments } from "@/app/v1/contracts/[id]/installments/route";
import { GET as listInstallments } from "@/app/v1/installments/route";
import { GET as getInstallment } from "@/app/v1/installments/[id]/route";
import { GET as getProposal } from "@/app/v1/proposals/[id]/route";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { cancelContract as cancelContractAt } from "@/lib/contracts/cancel-contract";
import { POST as createCustomer } from "@/app/v1/customers/route";
import { POST as createProposal, GET as listProposals } from "@/app/v1/proposals/route";
import { POST as signProposal } from "@/app/v1/proposals/[id]/sign/route";
import { POST as cancelProposal } from "@/app/v1/proposals/[id]/cancel/route";
import { POST as submitProposal } from "@/app/v1/proposals/[id]/submit/route";
import { POST as createSimulation } from "@/app/v1/simulations/route";
import { POST as payCharge } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { addDays } from "@/lib/finance";
import { newKey } from "../helpers/factory";
import { bearer, call } from "../helpers/http";
import { creditTenant, newProposal, signedProposal, uniqueCpf, type CreditTenant } from "./flow-helpers";

afterAll(() => stopListener());

const issueFor = (t: CreditTenant, proposalId: string, requestId?: string) =>
  call(issue, { base: t.base, path: "/v1/contracts", headers: { ...t.headers, ...(requestId ? { "x-request-id": requestId } : {}) }, json: { proposal_id: proposalId } });

type Inst = { id: string; number: number; due_date: string; principal: number; interest: number; amount: number; status: string; amount_due: Record<string, number | string> };

async function allInstallments(t: CreditTenant, contractId: string, extra = ""): Promise<Inst[]> {
  const out: Inst[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: { data: Inst[]; next_cursor: string | null } } = await call(contractInstallments, {
      base: t.base,
      path: `/v1/contracts/${contractId}/installments?limit=5${extra}${cursor ? `&cursor=${cursor}` : ""}`,
      headers: t.headers,
      params: { id: contractId },
    });
    expect(res.status).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

describe("contracts and installments (customer → simulation → proposal → approval → signature → contract)", () => {
  it("issues an active contract with the frozen terms and one installment per scheduled payment", async () => {
    const t = await creditTenant();
    const { proposal, simulation, customer } = await signedProposal(t);
    const res = await issueFor(t, proposal.id, "issue-1");
    expect(res.status).toBe(201);
    const year = "2026";
    expect(res.body).toMatchObject({
      object: "contract",
      number: `CCB-${year}-000001`,
      status: "active",
      proposal_id: proposal.id,
      customer_id: customer.id,
      product: "inss_payroll",
      principal: simulation.principal,
      monthly_rate: "0.018",
      term: 12,
      disbursement_date: "2026-03-02",
      environment: "sandbox",
    });
    const contractId = res.body.id as string;
    expect((await issueFor(t, proposal.id, "issue-1")).headers.get("idempotent-replayed")).toBe("true");

    const installments = await allInstallments(t, contractId);
    expect(installments.map((i) => i.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(installments.map((i) => [i.due_date, i.amount, i.principal, i.interest])).toEqual(
      simulation.schedule.map((s) => [s.due_date, s.payment, s.amortization, s.interest]),
    );
    expect(installments.reduce((sum, i) => sum + i.principal, 0)).toBe(simulation.principal);

    const prop = await call(getProposal, { path: `/v1/proposals/${proposal.id}`, headers: t.headers, params: { id: proposal.id } });
    expect(prop.body).toMatchObject({ status: "contract_issued", contract_id: contractId, allowed_actions: [] });
    // The list says the same as GET.
    const listed = await call(listProposals, { path: `/v1/proposals?status=contract_issued`, headers: t.headers });
    expect(listed.body.data.find((p: { id: string }) => p.id === proposal.id)).toEqual(prop.body);
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "contract.issued" } })).toBe(1);
    const changes = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "proposal.status_changed" }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    expect(changes[0]!.payload).toMatchObject({ id: proposal.id, status: "contract_issued", previous_status: "signed" });

    const again = await issueFor(t, proposal.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("invalid_transition");
    expect(await db().contract.count({ where: { tenantId: t.tenant.id } })).toBe(1);
  });

  it("refuses to issue from a proposal that is not signed (409) and numbers contracts per tenant", async () => {
    const t = await creditTenant();
    const { proposal } = await newProposal(t);
    const res = await issueFor(t, proposal.id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "invalid_transition", current_status: "draft", action: "issue_contract", detail: "Cannot issue_contract a proposal that is draft" });
    expect(await db().installment.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    const second = await signedProposal(t);
    expect((await issueFor(t, second.proposal.id)).body.number).toBe("CCB-2026-000001");
    const third = await signedProposal(t);
    expect((await issueFor(t, third.proposal.id)).body.number).toBe("CCB-2026-000002");
  });

  it("computes status and amount due with late charges on a date; filters by status and due date", async () => {
    const t = await creditTenant();
    const { proposal } = await signedProposal(t);
    const contractId = (await issueFor(t, proposal.id)).body.id as string;
    const [first] = await allInstallments(t, contractId);
    // Due 2026-04-02; on 2026-05-02 it is 30 days late: 2% fine + 1% a.m. pro rata (30/30).
    const late = await call(getInstallment, { path: `/v1/installments/${first!.id}?as_of=2026-05-02`, headers: t.headers, params: { id: first!.id } });
    expect(late.body.status).toBe("overdue");
    const fine = Math.round(first!.amount * 0.02);
    const interest = Math.round(first!.amount * 0.01);
    expect(late.body.amount_due).toEqual({ as_of: "2026-05-02", days_late: 30, outstanding: first!.amount, fine, late_interest: interest, total: first!.amount + fine + interest });
    const onTime = await call(getInstallment, { path: `/v1/installments/${first!.id}?as_of=2026-04-02`, headers: t.headers, params: { id: first!.id } });
    expect(onTime.body).toMatchObject({ status: "open", amount_due: { days_late: 0, fine: 0, late_interest: 0, total: first!.amount } });

    const overdue = await call(listInstallments, { path: `/v1/installments?contract_id=${contractId}&status=overdue&as_of=2026-06-15&limit=100`, headers: t.headers });
    expect(overdue.body.data.map((i: Inst) => i.number)).toEqual([1, 2, 3]);
    const window = await call(listInstallments, { path: `/v1/installments?contract_id=${contractId}&due_from=2026-06-01&due_to=2026-08-31`, headers: t.headers });
    // Due dates follow the next business day: 2026-08-02 is a Sunday.
    expect(window.body.data.map((i: Inst) => [i.number, i.due_date])).toEqual([[3, "2026-06-02"], [4, "2026-07-02"], [5, "2026-08-03"]]);
    const bad = await call(listInstallments, { path: "/v1/installments?status=late&due_from=2026-13-01", headers: t.headers });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { param: string }) => e.param)).toEqual(["status", "due_from"]);
  });

  it("cancels within the 7-day withdrawal period only, canceling the installments", async () => {
    const t = await creditTenant();
    const old = await signedProposal(t);
    const oldContract = (await issueFor(t, old.proposal.id)).body.id as string;
    const late = await call(cancelContract, { path: `/v1/contracts/${oldContract}/cancel`, headers: t.headers, params: { id: oldContract }, json: { reason: "changed my mind" } });
    expect(late.status).toBe(409);
    expect(late.body.detail).toBe("The withdrawal period ended on 2026-03-09");

    const fresh = await signedProposal(t, null); // default dates: disbursed today
    const contractId = (await issueFor(t, fresh.proposal.id)).body.id as string;
    const res = await call(cancelContract, { path: `/v1/contracts/${contractId}/cancel`, headers: t.headers, params: { id: contractId }, json: { reason: "changed my mind" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "canceled", disbursement_date: todayInBrazil() });
    expect(new Set((await allInstallments(t, contractId)).map((i) => i.status))).toEqual(new Set(["canceled"]));
    const twice = await call(cancelContract, { path: `/v1/contracts/${contractId}/cancel`, headers: t.headers, params: { id: contractId }, json: { reason: "again" } });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ current_status: "canceled", allowed_actions: [] });
  });

  it("the withdrawal period whose seventh day is a holiday runs to the next business day (disbursed Mon 2026-02-09: through Carnival to Wed 2026-02-18)", async () => {
    const t = await creditTenant();
    const issued = async () => (await issueFor(t, (await signedProposal(t, { disbursement_date: "2026-02-09", first_due_date: "2026-03-09" })).proposal.id)).body.id as string;
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    const actor = { type: "cli" as const, label: "test" };
    const [kept, late] = [await issued(), await issued()];
    await expect(cancelContractAt(scope, actor, late, "changed my mind", "2026-02-19")).rejects.toMatchObject({ code: "invalid_transition", message: "The withdrawal period ended on 2026-02-18" });
    expect((await db().contract.findUniqueOrThrow({ where: { id: late } })).status).toBe("active");
    expect(await cancelContractAt(scope, actor, kept, "changed my mind", "2026-02-18")).toMatchObject({ id: kept, status: "canceled" });
  });

  it("money received but allocated to no installment (held toward a pending settlement) also ends the withdrawal", async () => {
    const t = await creditTenant();
    const fresh = await signedProposal(t, null); // disbursed today: within the 7 days
    const contractId = (await issueFor(t, fresh.proposal.id)).body.id as string;
    const settlement = await call(createSettlement, { path: "/v1/settlements", headers: t.headers, json: { contract_id: contractId, type: "full", payment_method: "pix" } });
    expect(settlement.status).toBe(201);
    const chargeId = settlement.body.charge_id as string;
    const part = await call(payCharge, { path: `/v1/sandbox/charges/${chargeId}/pay`, headers: t.headers, params: { id: chargeId }, json: { amount: 10_000 } });
    expect(part.status).toBe(200);
    expect((await db().contract.findUniqueOrThrow({ where: { id: contractId } })).creditBalance).toBe(10_000n); // held, allocated to nothing
    const res = await call(cancelContract, { path: `/v1/contracts/${contractId}/cancel`, headers: t.headers, params: { id: contractId }, json: { reason: "changed my mind" } });
    expect([res.status, res.body.detail]).toEqual([409, "A contract with payments cannot be canceled"]);
    expect((await db().contract.findUniqueOrThrow({ where: { id: contractId } })).status).toBe("active");
  });

  it("isolates contracts and installments across tenants and environments, and checks permissions", async () => {
    const t = await creditTenant();
    const other = await creditTenant();
    const { proposal } = await signedProposal(t);
    const contract = (await issueFor(t, proposal.id)).body;
    const [inst] = await allInstallments(t, contract.id);
    const { key: liveKey } = await newKey(t.tenant.id, "production");
    const live = { base: "http://127.0.0.1:3000", headers: bearer(liveKey, t.tenant.id) };
    for (const who of [{ base: t.base, headers: other.headers }, live]) {
      expect((await call(getContract, { ...who, path: `/v1/contracts/${contract.id}`, params: { id: contract.id } })).status).toBe(404);
      expect((await call(getInstallment, { ...who, path: `/v1/installments/${inst!.id}`, params: { id: inst!.id } })).status).toBe(404);
      expect((await call(contractInstallments, { ...who, path: `/v1/contracts/${contract.id}/installments`, params: { id: contract.id } })).status).toBe(404);
      const list = await call(listContracts, { ...who, path: "/v1/contracts" });
      expect(list.body).toEqual({ object: "list", data: [], has_more: false, next_cursor: null });
      const theirIssue = await call(issue, { ...who, path: "/v1/contracts", json: { proposal_id: proposal.id } });
      expect(theirIssue.status).toBe(404);
    }
    const { key: readOnly } = await newKey(t.tenant.id, "sandbox", ["read"]);
    const denied = await call(cancelContract, { path: `/v1/contracts/${contract.id}/cancel`, headers: bearer(readOnly, t.tenant.id), params: { id: contract.id }, json: { reason: "x" } });
    expect(denied.status).toBe(403);
  });
});

describe("disbursement dates in production", () => {
  it("a proposal whose disbursement date has passed is not issued in production (422), nothing changes (the sandbox issues back-dated contracts: every late-collection test here)", async () => {
    const t = await creditTenant("production");
    const post = (handler: Parameters<typeof call>[0], path: string, json?: unknown, params?: Record<string, string>) => call(handler, { base: t.base, path, headers: t.headers, json, params });
    const customer = (await post(createCustomer, "/v1/customers", { document: uniqueCpf(), name: "Maria da Silva", birth_date: "1980-05-10", monthly_income: 2_000_000 })).body;
    const yesterday = addDays(todayInBrazil(), -1);
    // A simulation dated yesterday is refused at once, before anyone signs it.
    const old = (await post(createSimulation, "/v1/simulations", { product: "personal_loan", requested_amount: 500000, term: 12, monthly_rate: "0.0300", customer_id: customer.id, disbursement_date: yesterday })).body;
    const early = await post(createProposal, "/v1/proposals", { customer_id: customer.id, simulation_id: old.id });
    expect(early.body).toMatchObject({ status: 422, code: "disbursement_date_passed", disbursement_date: yesterday });
    // One dated today, signed, whose day then passes before the contract (a proposal waits for its averbação).
    const simulation = (await post(createSimulation, "/v1/simulations", { product: "personal_loan", requested_amount: 500000, term: 12, monthly_rate: "0.0300", customer_id: customer.id })).body;
    const proposal = (await post(createProposal, "/v1/proposals", { customer_id: customer.id, simulation_id: simulation.id })).body;
    for (const handler of [submitProposal, signProposal]) expect((await post(handler, `/v1/proposals/${proposal.id}/x`, undefined, { id: proposal.id })).status).toBe(200);
    const signed = await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } });
    await db().proposal.update({ where: { id: proposal.id }, data: { terms: { ...(signed.terms as object), disbursement_date: yesterday } } });
    const res = await post(issue, "/v1/contracts", { proposal_id: proposal.id });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: "disbursement_date_passed",
      detail: `The disbursement date (${yesterday}) has passed: cancel the proposal, then simulate and propose again with today's date or later`,
      disbursement_date: yesterday,
    });
    expect(await db().contract.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("signed");
    // The way out: a signed proposal can be canceled.
    const canceled = await post(cancelProposal, `/v1/proposals/${proposal.id}/cancel`, { reason: "disbursement date passed" }, { id: proposal.id });
    expect(canceled.body).toMatchObject({ status: "canceled" });
  });

  it("inline terms dated in the past are refused too; a proposal lapses at the end of its disbursement day; one past it is not signed", async () => {
    const t = await creditTenant("production");
    const post = (handler: Parameters<typeof call>[0], path: string, json?: unknown, params?: Record<string, string>) => call(handler, { base: t.base, path, headers: t.headers, json, params });
    const customer = (await post(createCustomer, "/v1/customers", { document: uniqueCpf(), name: "Maria da Silva", birth_date: "1980-05-10", monthly_income: 2_000_000 })).body;
    const yesterday = addDays(todayInBrazil(), -1);
    const terms = { product: "personal_loan", requested_amount: 500000, term: 12, monthly_rate: "0.0300" };
    const inline = await post(createProposal, "/v1/proposals", { customer_id: customer.id, terms: { ...terms, disbursement_date: yesterday } });
    expect(inline.body).toMatchObject({ status: 422, code: "disbursement_date_passed", disbursement_date: yesterday });
    expect(await db().proposal.count({ where: { tenantId: t.tenant.id } })).toBe(0);

    // Dated today: it lives until the end of today in Brasília, not 30 days.
    const proposal = (await post(createProposal, "/v1/proposals", { customer_id: customer.id, terms })).body;
    expect(proposal.expires_at).toBe(new Date(`${addDays(todayInBrazil(), 1)}T00:00:00.000-03:00`).toISOString());
    // Dated in 40 days: 30 days, as ever.
    const later = (await post(createProposal, "/v1/proposals", { customer_id: customer.id, terms: { ...terms, disbursement_date: addDays(todayInBrazil(), 40) } })).body;
    const validity = new Date(later.expires_at).getTime() - new Date(later.created_at).getTime(); // two clocks: the app's and the database's
    expect(Math.abs(validity - 30 * 24 * 3600 * 1000)).toBeLessThan(60_000);

    // Approved, then its day passes (a proposal made before this rule had 30 days): signing it is 422, nothing changes.
    expect((await post(submitProposal, `/v1/proposals/${proposal.id}/submit`, undefined, { id: proposal.id })).body.status).toBe("approved");
    const row = await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } });
    await db().proposal.update({ where: { id: proposal.id }, data: { terms: { ...(row.terms as object), disbursement_date: yesterday }, expiresAt: new Date(Date.now() + 86_400_000) } });
    const sign = await post(signProposal, `/v1/proposals/${proposal.id}/sign`, undefined, { id: proposal.id });
    expect(sign.body).toMatchObject({ status: 422, code: "disbursement_date_passed", disbursement_date: yesterday });
    expect((await db().proposal.findUniqueOrThrow({ where: { id: proposal.id } })).status).toBe("approved");
  });
});
