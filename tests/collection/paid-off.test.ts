import { describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { GET as getContract } from "@/app/v1/contracts/[id]/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { POST as repasse } from "@/app/v1/sandbox/repasse/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { loadPaymentPage } from "@/lib/collection/payment-page-data";
import { payCharge } from "@/lib/collection/pay-charge";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { call } from "../helpers/http";
import { creditTenant, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// A contract whose last installment is paid closes (`settled`, event `contract.closed` with reason `paid_off`), in
// the payment's transaction — by a charge's payment, an overpayment (the rest stays the borrower's credit), two
// payments of the last installments at once (closed once), and the payroll repasse. Before, a loan paid to the end
// stayed `active` for ever: counted among active contracts, collectible, assignable.

async function contractOf(t: CreditTenant) {
  const { proposal } = await signedProposal(t, { disbursement_date: "2026-03-02", first_due_date: "2026-04-02" });
  const res = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
  expect(res.status).toBe(201);
  const installments = await db().installment.findMany({ where: { contractId: res.body.id }, orderBy: { number: "asc" } });
  return { contract: res.body as { id: string; status: string }, installments };
}

const post = (t: CreditTenant, handler: Parameters<typeof call>[0], path: string, json?: unknown, params?: Record<string, string>) =>
  call(handler, { base: t.base, path, headers: t.headers, json, params });
const contractNow = async (t: CreditTenant, id: string) => (await call(getContract, { base: t.base, path: `/v1/contracts/${id}`, headers: t.headers, params: { id } })).body;
const closedEvents = (t: CreditTenant) => db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "contract.closed" } });

describe("a contract paid to its last installment", () => {
  it("closes when a charge for everything still open is paid; an overpayment stays the borrower's credit", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    expect(contract).toMatchObject({ status: "active", credit_balance: 0 });
    // Due today: its amount is what is owed today (late charges to today, the later installments at face value).
    const today = todayInBrazil();
    const charge = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "pix", due_date: today, installment_ids: installments.map((i) => i.id) })).body;
    expect(await closedEvents(t)).toEqual([]);
    const paid = await post(t, pay, `/v1/sandbox/charges/${charge.id}/pay`, { amount: charge.amount + 1234 }, { id: charge.id });
    expect(paid.status).toBe(200);
    expect(paid.body.payment).toMatchObject({ amount: charge.amount + 1234, credit: 1234 });

    const closed = await contractNow(t, contract.id);
    expect(closed).toMatchObject({ status: "settled", outstanding_balance: 0, credit_balance: 1234, amount_paid: charge.amount });
    const events = await closedEvents(t);
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toEqual({ ...closed, reason: "paid_off", settlement_id: null });
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "contract.closed" } });
    expect(audit.metadata).toEqual({ from: "active", to: "settled", reason: "paid_off" });

    // Closed: nothing more is collected.
    const again = await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto" });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "contract_not_active", detail: "The contract is settled: only active, assigned and written-off contracts are collected", current_status: "settled" });
  });

  it("stays active while an installment is open, and closes once when the last two are paid at the same time", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const allButTwo = installments.slice(0, -2);
    const [penultimate, last] = installments.slice(-2);
    const first = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "pix", installment_ids: allButTwo.map((i) => i.id) })).body;
    expect((await post(t, pay, `/v1/sandbox/charges/${first.id}/pay`, {}, { id: first.id })).status).toBe(200);
    expect(await contractNow(t, contract.id)).toMatchObject({ status: "active" });

    const a = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "pix", installment_ids: [penultimate!.id] })).body;
    const b = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto", installment_ids: [last!.id] })).body;
    const results = await Promise.all([
      post(t, pay, `/v1/sandbox/charges/${a.id}/pay`, {}, { id: a.id }),
      post(t, pay, `/v1/sandbox/charges/${b.id}/pay`, {}, { id: b.id }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(await contractNow(t, contract.id)).toMatchObject({ status: "settled", outstanding_balance: 0, credit_balance: 0 });
    expect(await closedEvents(t)).toHaveLength(1);
  });

  it("cancels a settlement still pending, with its charge: paid later, that money is the borrower's credit", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const settlement = (await post(t, createSettlement, "/v1/settlements", { contract_id: contract.id, type: "full", payment_method: "boleto" })).body;
    expect(settlement).toMatchObject({ status: "pending", charge_id: expect.any(String) });
    const all = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "pix", installment_ids: installments.map((i) => i.id) })).body;
    expect((await post(t, pay, `/v1/sandbox/charges/${all.id}/pay`, {}, { id: all.id })).status).toBe(200);

    expect(await contractNow(t, contract.id)).toMatchObject({ status: "settled", credit_balance: 0 });
    const row = await db().settlement.findUniqueOrThrow({ where: { id: settlement.id } });
    expect(row).toMatchObject({ status: "canceled", cancelReason: "the contract was paid off by its installments", paymentId: null });
    expect(await db().charge.findUniqueOrThrow({ where: { id: settlement.charge_id } })).toMatchObject({ status: "canceled" });
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: { in: ["contract.closed", "settlement.canceled", "charge.canceled"] } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(events.map((e) => [e.type, (e.payload as { id: string }).id])).toEqual([
      ["contract.closed", contract.id],
      ["charge.canceled", settlement.charge_id],
      ["settlement.canceled", settlement.id],
    ]);

    // The borrower pays the settlement's boleto anyway: the sandbox (as a bank) refuses a canceled boleto; the
    // provider's notification of money that arrived (payCharge with whenClosed "credit") makes it the credit.
    expect((await post(t, pay, `/v1/sandbox/charges/${settlement.charge_id}/pay`, {}, { id: settlement.charge_id })).status).toBe(409);
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    const { payment } = await payCharge(scope, { type: "system", label: "provider" }, settlement.charge_id, { amount: settlement.amount, whenClosed: "credit" });
    expect(payment).toMatchObject({ amount: settlement.amount, credit: settlement.amount, allocations: [] });
    expect(await contractNow(t, contract.id)).toMatchObject({ status: "settled", credit_balance: settlement.amount });
  });

  it("closes when the payroll repasse pays the last installment", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const months = [...new Set(installments.map((i) => i.dueDate.toISOString().slice(0, 7)))];
    for (const competence of months) {
      const res = await post(t, repasse, "/v1/sandbox/repasse", { competence, scenario: "full", contract_ids: [contract.id] });
      expect(res.status).toBe(200);
      const expected = competence === months.at(-1) ? "settled" : "active";
      expect((await contractNow(t, contract.id)).status).toBe(expected);
    }
    const events = await closedEvents(t);
    expect(events.map((e) => (e.payload as { reason: string }).reason)).toEqual(["paid_off"]);
    // A payroll contract: its averbação is to end at the authority (tests/payroll/endorsement-termination.test.ts).
    const contractRow = await db().contract.findUniqueOrThrow({ where: { id: contract.id } });
    expect(await db().endorsement.findFirstOrThrow({ where: { proposalId: contractRow.proposalId } })).toMatchObject({ status: "terminating", terminationReason: "settled" });
    // The next month finds nothing to collect.
    const after = await post(t, repasse, "/v1/sandbox/repasse", { competence: "2028-01", scenario: "full", contract_ids: [contract.id] });
    expect(after.body.contracts[0]).toMatchObject({ status: "skipped", reason: "contract_not_active" });
  });
});

describe("charges left with nothing to collect", () => {
  it("a boleto and a Pix for the same installment: paying one cancels the other, and one that also collects another installment; a charge for other installments stays", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const [first, second] = installments;
    const boleto = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto", installment_ids: [first!.id] })).body;
    const both = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto", installment_ids: [first!.id, second!.id] })).body;
    const pix = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "pix", installment_ids: [first!.id] })).body;
    expect((await post(t, pay, `/v1/sandbox/charges/${pix.id}/pay`, {}, { id: pix.id })).status).toBe(200);

    const statuses = await db().charge.findMany({ where: { id: { in: [boleto.id, both.id, pix.id] } }, select: { id: true, status: true } });
    // `both` asks for the first installment again beside the second: paid, that part would only become credit.
    expect(Object.fromEntries(statuses.map((c) => [c.id, c.status]))).toEqual({ [pix.id]: "paid", [boleto.id]: "canceled", [both.id]: "canceled" });
    const canceled = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "charge.canceled" } });
    expect(canceled.map((e) => (e.payload as { id: string }).id).sort()).toEqual([boleto.id, both.id].sort());
    expect(canceled.map((e) => (e.payload as { status: string }).status)).toEqual(["canceled", "canceled"]);
    const audits = await db().auditLog.findMany({ where: { tenantId: t.tenant.id, action: "charge.canceled" } });
    expect(Object.fromEntries(audits.map((a) => [a.targetId, a.metadata]))).toEqual({
      [boleto.id]: { from: "pending", to: "canceled", reason: `its installments were paid by charge ${pix.id}` },
      [both.id]: { from: "pending", to: "canceled", reason: `its installments were paid in part by charge ${pix.id}` },
    });
    const other = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto", installment_ids: [second!.id] })).body;
    expect((await post(t, pay, `/v1/sandbox/charges/${other.id}/pay`, { amount: 1000 }, { id: other.id })).status).toBe(200);
    expect((await db().charge.findUniqueOrThrow({ where: { id: other.id } })).status).toBe("partially_paid"); // the paid charge itself stays

    // Canceled: the sandbox's "pay as the bank would" refuses it (a provider's notification of money that arrived
    // anyway makes it the contract's credit: tests/collection/notifications.test.ts).
    const late = await post(t, pay, `/v1/sandbox/charges/${boleto.id}/pay`, { amount: boleto.amount }, { id: boleto.id });
    expect(late.status).toBe(409);
  });

  it("paid in part: every other open charge for that installment is canceled (its code asks for all of it again); the paid one and the settlement's stay", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const [first, second] = installments;
    const charge = async (json: Record<string, unknown>) => (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, ...json })).body;
    const settlement = (await post(t, createSettlement, "/v1/settlements", { contract_id: contract.id, type: "full", payment_method: "pix" })).body;
    const a = await charge({ method: "boleto", installment_ids: [first!.id] });
    const b = await charge({ method: "pix", installment_ids: [first!.id] });
    const both = await charge({ method: "boleto", installment_ids: [first!.id, second!.id] });
    const secondOnly = await charge({ method: "pix", installment_ids: [second!.id] });
    const paid = await post(t, pay, `/v1/sandbox/charges/${a.id}/pay`, { amount: 60_000 }, { id: a.id });
    expect(paid.status).toBe(200);
    expect(paid.body.charge).toMatchObject({ id: a.id, status: "partially_paid", amount_paid: 60_000 });
    expect(paid.body.payment).toMatchObject({ amount: 60_000, credit: 0, allocations: [{ installment_id: first!.id, total: 60_000, settles: false }] });

    const statuses = await db().charge.findMany({ where: { contractId: contract.id }, select: { id: true, status: true } });
    expect(Object.fromEntries(statuses.map((c) => [c.id, c.status]))).toEqual({
      [a.id]: "partially_paid",
      [b.id]: "canceled",
      [both.id]: "canceled",
      [secondOnly.id]: "pending",
      [settlement.charge_id]: "pending", // canceled only with its settlement
    });
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "charge.canceled" } });
    expect(events.map((e) => e.payload as { id: string; status: string; amount_paid: number }).sort((x, y) => x.id.localeCompare(y.id))).toEqual(
      [b, both].sort((x, y) => x.id.localeCompare(y.id)).map((c) => expect.objectContaining({ id: c.id, status: "canceled", amount_paid: 0 })),
    );
    const audits = await db().auditLog.findMany({ where: { tenantId: t.tenant.id, action: "charge.canceled" } });
    const reason = `its installments were paid in part by charge ${a.id}`;
    expect(Object.fromEntries(audits.map((x) => [x.targetId, x.metadata]))).toEqual({
      [b.id]: { from: "pending", to: "canceled", reason },
      [both.id]: { from: "pending", to: "canceled", reason },
    });

    // B's page no longer shows its code for the whole installment; the sandbox (as the PSP) refuses it.
    const page = await loadPaymentPage(b.payment_page_url.split("/pay/")[1], "sandbox");
    expect(page).toMatchObject({ payable: false, notice: "Esta cobrança foi cancelada. Peça uma nova ao credor.", qrSvg: null, barcodeSvg: null, payer: { name: "", document: "" } });
    const again = await post(t, pay, `/v1/sandbox/charges/${b.id}/pay`, { amount: b.amount }, { id: b.id });
    expect([again.status, again.body.code]).toEqual([409, "invalid_transition"]);
    expect(await db().payment.count({ where: { chargeId: b.id } })).toBe(0);
    expect(await contractNow(t, contract.id)).toMatchObject({ credit_balance: 0 });
    // A new charge asks for the rest of the installment's face.
    const rest = await charge({ method: "pix", installment_ids: [first!.id] });
    const { fine, late_interest } = paid.body.payment.allocations[0];
    expect(rest.breakdown[0].principal + rest.breakdown[0].interest).toBe(Number(first!.amount) - (60_000 - fine - late_interest));
  });
});