import { describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as cancelContract } from "@/app/v1/contracts/[id]/cancel/route";
import { GET as getContract } from "@/app/v1/contracts/[id]/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { POST as batch } from "@/app/v1/settlements/batch/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { POST as createRefund } from "@/app/v1/refunds/route";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { addDays, addMonths } from "@/lib/finance";
import { runCollectionJob } from "@/lib/collection/collection-job";
import { centavos } from "@/lib/serialize";
import { call } from "../helpers/http";
import { creditTenant, lateContractDates, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// What happens to money and charges around a contract's end, and to two payments at once: every transaction that
// moves a contract's money locks the contract first (lib/contracts/lock-contract.ts), a settlement's charge paid
// when the settlement can no longer complete is recorded (never refused), and a contract that ends — settled in
// full, rescheduled by a partial settlement, withdrawn — takes its open charges with it.

const today = () => todayInBrazil();

async function contractOf(t: CreditTenant) {
  const { proposal } = await signedProposal(t, { disbursement_date: today(), first_due_date: addMonths(today(), 1) });
  const res = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
  expect(res.status).toBe(201);
  const installments = await db().installment.findMany({ where: { contractId: res.body.id }, orderBy: { number: "asc" } });
  return { contract: res.body as { id: string; outstanding_balance: number }, installments };
}

/** What a payment's allocations add up to. */
const allocated = (payment: { allocations: { total: number }[] }) => payment.allocations.reduce((sum, a) => sum + a.total, 0);
const post = (t: CreditTenant, handler: Parameters<typeof call>[0], path: string, json?: unknown, params?: Record<string, string>) =>
  call(handler, { base: t.base, path, headers: t.headers, json, params });
const charge = async (t: CreditTenant, contractId: string, method: "boleto" | "pix", installmentIds: string[]) => {
  const res = await post(t, createCharge, "/v1/charges", { contract_id: contractId, method, installment_ids: installmentIds });
  expect(res.status).toBe(201);
  return res.body as { id: string; amount: number };
};
const contractNow = async (t: CreditTenant, id: string) => (await call(getContract, { base: t.base, path: `/v1/contracts/${id}`, headers: t.headers, params: { id } })).body;
const statusOf = async (chargeId: string) => (await db().charge.findUniqueOrThrow({ where: { id: chargeId } })).status;

describe("payments at the same time", () => {
  it("a boleto and a Pix for one installment paid at once: the installment is paid once, the other charge canceled (409), never a 500", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const first = installments[0]!;
    const boleto = await charge(t, contract.id, "boleto", [first.id]);
    const pix = await charge(t, contract.id, "pix", [first.id]);
    const results = await Promise.all([boleto, pix].map((c) => post(t, pay, `/v1/sandbox/charges/${c.id}/pay`, { amount: c.amount }, { id: c.id })));
    // One paid the installment; the other either found its charge canceled (409, as a bank refuses a canceled boleto)
    // or, had it won the race to its own charge, the installment already paid: credit. Never paid twice.
    const paidOnce = await db().installment.findUniqueOrThrow({ where: { id: first.id } });
    expect(centavos(paidOnce.paidAmount)).toBe(centavos(first.amount));
    const payments = await db().payment.findMany({ where: { contractId: contract.id } });
    const received = payments.reduce((sum, p) => sum + centavos(p.amount), 0);
    const credit = payments.reduce((sum, p) => sum + centavos(p.credit), 0);
    expect(received - credit).toBe(centavos(first.amount));
    const now = await contractNow(t, contract.id);
    expect(now).toMatchObject({ outstanding_balance: contract.outstanding_balance - centavos(first.amount), credit_balance: credit });
    // The second waits for the contract's lock, then finds its charge canceled by the first: 409 (a bank refuses a
    // canceled boleto; a provider's notification of it would become credit). Before the lock: a deadlock's 500.
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(payments).toHaveLength(1);
  });
});

describe("a settlement's charge paid when the settlement can no longer complete", () => {
  it("is recorded: the settlement is canceled with the reason; the money pays what is due, the rest is credit (no installment prepaid at face)", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const settlement = (await post(t, createSettlement, "/v1/settlements", { contract_id: contract.id, type: "partial", amount: 100_000, reduce: "term", payment_method: "pix" })).body;
    expect(settlement).toMatchObject({ status: "pending", charge_id: expect.any(String) });
    // The first installment is paid by a boleto meanwhile: the settlement's plan no longer matches the installments.
    const boleto = await charge(t, contract.id, "boleto", [installments[0]!.id]);
    expect((await post(t, pay, `/v1/sandbox/charges/${boleto.id}/pay`, {}, { id: boleto.id })).status).toBe(200);

    const paid = await post(t, pay, `/v1/sandbox/charges/${settlement.charge_id}/pay`, { amount: settlement.amount }, { id: settlement.charge_id });
    expect(paid.status).toBe(200);
    // Its settlement gone, the charge is done once its own amount came in (never left open for the job to mark overdue).
    expect(paid.body.charge).toMatchObject({ id: settlement.charge_id, status: "paid" });
    expect(paid.body.payment.amount).toBe(settlement.amount);
    const row = await db().settlement.findUniqueOrThrow({ where: { id: settlement.id } });
    expect(row.status).toBe("canceled");
    expect(row.cancelReason).toBe(
      `its charge ${settlement.charge_id} was paid but it could not be completed: The contract's installments changed since this settlement was made; cancel it and make a new one`,
    );
    // The installments were not rescheduled, and none is due yet: a future installment paid at face would lose the
    // early-payoff discount, so the money is the contract's credit — a new settlement nets it at present value.
    expect(paid.body.payment).toMatchObject({ allocations: [], credit: settlement.amount });
    const later = await db().installment.findMany({ where: { contractId: contract.id, number: { gt: 1 } } });
    expect(later.every((i) => i.status === "open" && centavos(i.paidAmount) === 0)).toBe(true);
    expect(await contractNow(t, contract.id)).toMatchObject({ status: "active", credit_balance: settlement.amount, outstanding_balance: contract.outstanding_balance - centavos(installments[0]!.amount) });
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: { in: ["settlement.canceled", "settlement.completed", "charge.canceled"] } } });
    expect(events.map((e) => e.type)).toEqual(["settlement.canceled"]);
  });
});

describe("a settlement's charge paid in parts", () => {
  it("holds the first part as credit (allocated to nothing); the part that reaches the amount completes the settlement", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const settlement = (await post(t, createSettlement, "/v1/settlements", { contract_id: contract.id, type: "full", payment_method: "pix" })).body;
    const first = await post(t, pay, `/v1/sandbox/charges/${settlement.charge_id}/pay`, { amount: 100_000 }, { id: settlement.charge_id });
    expect(first.status).toBe(200);
    expect(first.body.charge).toMatchObject({ status: "partially_paid", amount_paid: 100_000 });
    expect(first.body.payment).toMatchObject({ amount: 100_000, allocations: [], credit: 100_000, settlement_id: settlement.id });
    expect(await contractNow(t, contract.id)).toMatchObject({ status: "active", credit_balance: 100_000, outstanding_balance: contract.outstanding_balance });
    expect((await db().installment.findMany({ where: { contractId: contract.id, paidAmount: { gt: 0 } } })).length).toBe(0);

    // No amount: what is still open on the charge — not the whole amount again.
    const rest = await post(t, pay, `/v1/sandbox/charges/${settlement.charge_id}/pay`, {}, { id: settlement.charge_id });
    expect(rest.status).toBe(200);
    expect(rest.body.charge).toMatchObject({ status: "paid", amount_paid: settlement.amount });
    // The part held as credit is consumed beside this payment's money: its allocations add up to amount + credit_applied - credit.
    expect(rest.body.payment).toMatchObject({ amount: settlement.amount - 100_000, credit: 0, credit_applied: 100_000, settlement_id: settlement.id });
    expect(allocated(rest.body.payment)).toBe(settlement.amount);
    expect(await db().settlement.findUniqueOrThrow({ where: { id: settlement.id } })).toMatchObject({ status: "completed" });
    expect(await contractNow(t, contract.id)).toMatchObject({ status: "settled", credit_balance: 0, outstanding_balance: 0, amount_paid: settlement.amount });
    expect((await db().installment.findMany({ where: { contractId: contract.id, status: "paid" } })).length).toBe(installments.length);
  });

  it("held money is the settlement's: the credit job does not spend it and it is not refundable until the settlement ends", async () => {
    const t = await creditTenant();
    const { proposal } = await signedProposal(t, lateContractDates()); // installments 1–8 late today, none due within days of it
    const contract = (await post(t, issueContract, "/v1/contracts", { proposal_id: proposal.id })).body;
    const settlement = (await post(t, createSettlement, "/v1/settlements", { contract_id: contract.id, type: "full", payment_method: "boleto", date: addDays(today(), 5) })).body;
    expect((await post(t, pay, `/v1/sandbox/charges/${settlement.charge_id}/pay`, { amount: 100_000 }, { id: settlement.charge_id })).status).toBe(200);
    await runCollectionJob();
    expect(await contractNow(t, contract.id)).toMatchObject({ credit_balance: 100_000 });
    const refund = await post(t, createRefund, "/v1/refunds", { contract_id: contract.id, method: "pix" });
    expect(refund.status).toBe(409);
    expect(refund.body).toMatchObject({ code: "insufficient_credit", credit_balance: 100_000, refundable: 0 });
    const rest = await post(t, pay, `/v1/sandbox/charges/${settlement.charge_id}/pay`, {}, { id: settlement.charge_id });
    expect(rest.body.charge.status).toBe("paid");
    expect(await db().settlement.findUniqueOrThrow({ where: { id: settlement.id } })).toMatchObject({ status: "completed" });
    // Paid 5 days before its date: priced today (5 days' less late interest), the difference the borrower's credit.
    const completion = await db().payment.findFirstOrThrow({ where: { settlementId: settlement.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    expect(centavos(completion.credit)).toBeGreaterThan(0);
    expect(await contractNow(t, contract.id)).toMatchObject({ status: "settled", credit_balance: centavos(completion.credit), outstanding_balance: 0 });
  });

  it("a partial settlement (prepayment) paid in two parts reschedules once, with the held credit used", async () => {
    const t = await creditTenant();
    const { contract } = await contractOf(t);
    const settlement = (await post(t, createSettlement, "/v1/settlements", { contract_id: contract.id, type: "partial", amount: 200_000, reduce: "installment_amount", payment_method: "boleto" })).body;
    const payments: { id: string; amount: number; credit: number; credit_applied: number }[] = [];
    for (const amount of [50_000, 150_000]) {
      const paid = await post(t, pay, `/v1/sandbox/charges/${settlement.charge_id}/pay`, { amount }, { id: settlement.charge_id });
      expect(paid.status).toBe(200);
      payments.push(paid.body.payment);
    }
    expect(payments.map((p) => ({ amount: p.amount, credit: p.credit, credit_applied: p.credit_applied }))).toEqual([
      { amount: 50_000, credit: 50_000, credit_applied: 0 }, // held for the settlement
      { amount: 150_000, credit: 0, credit_applied: 50_000 }, // completes it with what was held
    ]);
    expect(await db().settlement.findUniqueOrThrow({ where: { id: settlement.id } })).toMatchObject({ status: "completed", paymentId: payments[1]!.id });
    const now = await contractNow(t, contract.id);
    expect(now).toMatchObject({ status: "active", credit_balance: 0, amount_paid: 200_000 });
  });
});

describe("a contract that ends takes its open charges with it", () => {
  it("settled in full (funds received): its open charges are canceled", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const open = await charge(t, contract.id, "boleto", [installments[0]!.id, installments[1]!.id]);
    const done = await post(t, createSettlement, "/v1/settlements", { contract_id: contract.id, type: "full", payment_method: "received" });
    expect(done.body).toMatchObject({ status: "completed" });
    expect(await statusOf(open.id)).toBe("canceled");
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "charge.canceled", targetId: open.id } });
    expect(audit.metadata).toEqual({ from: "pending", to: "canceled", reason: `the contract was settled by settlement ${done.body.id}` });
  });

  it("in a batch too (the batch's SQL path hands such a contract to the services' path)", async () => {
    const t = await creditTenant();
    const a = await contractOf(t);
    const b = await contractOf(t);
    const open = await charge(t, a.contract.id, "pix", [a.installments[0]!.id]);
    const res = await post(t, batch, "/v1/settlements/batch", { items: [a, b].map((x) => ({ contract_id: x.contract.id, type: "full", payment_method: "received" })) });
    expect(res.status).toBe(201);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(["created", "created"]);
    expect(await statusOf(open.id)).toBe("canceled");
    expect((await contractNow(t, a.contract.id)).status).toBe("settled");
    expect((await contractNow(t, b.contract.id)).status).toBe("settled");
  });

  it("rescheduled by a partial settlement: charges for the rescheduled installments are canceled", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const open = await charge(t, contract.id, "boleto", [installments[0]!.id]);
    const done = await post(t, createSettlement, "/v1/settlements", { contract_id: contract.id, type: "partial", amount: 100_000, reduce: "installment_amount", payment_method: "received" });
    expect(done.body).toMatchObject({ status: "completed" });
    expect(await statusOf(open.id)).toBe("canceled");
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: t.tenant.id, action: "charge.canceled", targetId: open.id } });
    expect(audit.metadata).toMatchObject({ reason: `its installments were rescheduled by settlement ${done.body.id}` });
  });

  it("withdrawn (canceled within 7 days): its pending settlement and open charges are canceled", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const open = await charge(t, contract.id, "pix", [installments[0]!.id]);
    const settlement = (await post(t, createSettlement, "/v1/settlements", { contract_id: contract.id, type: "full", payment_method: "boleto" })).body;
    const res = await post(t, cancelContract, `/v1/contracts/${contract.id}/cancel`, { reason: "withdrawal" }, { id: contract.id });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("canceled");
    expect(await statusOf(open.id)).toBe("canceled");
    expect(await statusOf(settlement.charge_id)).toBe("canceled");
    expect(await db().settlement.findUniqueOrThrow({ where: { id: settlement.id } })).toMatchObject({ status: "canceled", cancelReason: "the contract was canceled (withdrawal)" });
  });
});

describe("credit a pending full settlement netted from its payoff", () => {
  it("is not refundable while it is pending: refunded, the borrower's boleto would fall short of the payoff", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const first = await charge(t, contract.id, "pix", [installments[0]!.id]);
    expect((await post(t, pay, `/v1/sandbox/charges/${first.id}/pay`, { amount: first.amount + 5_000 }, { id: first.id })).status).toBe(200);
    const settlement = (await post(t, createSettlement, "/v1/settlements", { contract_id: contract.id, type: "full", payment_method: "boleto" })).body;
    expect(settlement.quote.credit_applied).toBe(5_000);
    const refused = await post(t, createRefund, "/v1/refunds", { contract_id: contract.id, amount: 5_000, method: "pix" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "insufficient_credit", credit_balance: 5_000, refundable: 0 });
    // Paid as quoted, the settlement completes with that credit.
    const paid = await post(t, pay, `/v1/sandbox/charges/${settlement.charge_id}/pay`, {}, { id: settlement.charge_id });
    expect(paid.status).toBe(200);
    expect(paid.body.payment).toMatchObject({ amount: settlement.amount, credit: 0, credit_applied: 5_000 });
    expect(allocated(paid.body.payment)).toBe(settlement.amount + 5_000);
    expect(await db().settlement.findUniqueOrThrow({ where: { id: settlement.id } })).toMatchObject({ status: "completed" });
    expect(await contractNow(t, contract.id)).toMatchObject({ status: "settled", credit_balance: 0, outstanding_balance: 0 });
  });
});

describe("a future-dated full settlement paid early", () => {
  it("is priced on the day the money arrived: no fine for installments not late yet, the discount to that day, the rest credit", async () => {
    const t = await creditTenant();
    // The first installment falls due in 10 days; the settlement is dated 20 days out, when it would be late.
    const { proposal } = await signedProposal(t, { disbursement_date: today(), first_due_date: addDays(today(), 10) });
    const contract = (await post(t, issueContract, "/v1/contracts", { proposal_id: proposal.id })).body as { id: string };
    const settlement = (await post(t, createSettlement, "/v1/settlements", { contract_id: contract.id, type: "full", payment_method: "pix", date: addDays(today(), 20) })).body;
    expect(settlement.quote.late_charges).toBeGreaterThan(0); // quoted for its date: the first installment late by then
    const paid = await post(t, pay, `/v1/sandbox/charges/${settlement.charge_id}/pay`, {}, { id: settlement.charge_id }); // today
    expect(paid.status).toBe(200);
    expect(await db().settlement.findUniqueOrThrow({ where: { id: settlement.id } })).toMatchObject({ status: "completed" });
    // What today's quote would have been: the borrower owed that, and the rest of what they paid is their credit.
    const payment = await db().payment.findFirstOrThrow({ where: { settlementId: settlement.id } });
    const allocations = payment.allocations as { fine: number; late_interest: number; total: number }[];
    expect(allocations.every((a) => a.fine === 0 && a.late_interest === 0)).toBe(true);
    const owedToday = allocations.reduce((sum, a) => sum + a.total, 0);
    expect(owedToday).toBeLessThan(settlement.amount);
    expect(centavos(payment.credit)).toBe(settlement.amount - owedToday);
    expect(await contractNow(t, contract.id)).toMatchObject({ status: "settled", credit_balance: settlement.amount - owedToday });
  });
});

