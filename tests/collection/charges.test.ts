import jsQR from "jsqr";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { POST as createCharge, GET as listCharges } from "@/app/v1/charges/route";
import { GET as getCharge } from "@/app/v1/charges/[id]/route";
import { POST as cancelCharge } from "@/app/v1/charges/[id]/cancel/route";
import { GET as listPayments } from "@/app/v1/payments/route";
import { GET as getPayment } from "@/app/v1/payments/[id]/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { GET as getContract } from "@/app/v1/contracts/[id]/route";
import { todayInBrazil } from "@/lib/clock";
import { amountsDue } from "@/lib/collection/allocation";
import { barcodeFromLine, dueDateFactor } from "@/lib/collection/boleto";
import { allocatable } from "@/lib/collection/allocation";
import { isValidTxid, parseBrCode } from "@/lib/collection/pix-brcode";
import { db } from "@/lib/db/client";
import { addDays } from "@/lib/finance";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { creditTenant, lateContractDates, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// Charges through /v1 on the sandbox: boleto and Pix payloads, payment allocation, balances, events, 409s.

const LATE = { fineRate: "0.02", monthlyLateInterestRate: "0.01" }; // inss_payroll's late rules (lib/products.ts)
const dueDateOf = (installment: { dueDate: Date }) => installment.dueDate.toISOString().slice(0, 10);

/** An INSS contract disbursed months ago: installments 1–8 late today, 9–12 to come, none due today (lateContractDates). */
async function contractOf(t: CreditTenant) {
  const { proposal } = await signedProposal(t, lateContractDates());
  const res = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
  expect(res.status).toBe(201);
  const installments = await db().installment.findMany({ where: { contractId: res.body.id }, orderBy: { number: "asc" } });
  return { contract: res.body as { id: string; customer_id: string }, installments };
}

const post = (t: CreditTenant, handler: Parameters<typeof call>[0], path: string, json?: unknown, params?: Record<string, string>) =>
  call(handler, { base: t.base, path, headers: t.headers, json, params });

describe("charges", () => {
  it("boleto for an overdue installment: amount with late charges to the due date, a barcode and line that check digit by digit", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const first = installments[0]!;
    const res = await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto" });
    expect(res.status).toBe(201);
    const today = todayInBrazil();
    const due = amountsDue(allocatable(first), LATE, today);
    expect(due.fine).toBeGreaterThan(0); // the first installment is late by now
    expect(res.body).toEqual({
      id: expect.stringMatching(/^chg_/),
      object: "charge",
      status: "pending",
      method: "boleto",
      contract_id: contract.id,
      customer_id: contract.customer_id,
      installment_ids: [first.id],
      settlement_id: null,
      due_date: today,
      amount: due.total,
      amount_paid: 0,
      breakdown: [{ installment_id: first.id, number: 1, due_date: dueDateOf(first), ...due }],
      boleto: {
        barcode: expect.stringMatching(/^0019\d{40}$/),
        digitable_line: expect.stringMatching(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/),
        due_date: today,
        our_number: expect.stringMatching(/^1234567\d{10}$/),
        bank_code: "001",
      },
      pix: null,
      beneficiary: { name: "Credit Platform Sandbox", document: "11222333000181", city: "Sao Paulo", bank_code: "001", agreement: "1234567" },
      payment_page_url: expect.stringMatching(new RegExp(`^${t.base}/pay/${res.body.id}\\.[A-Za-z0-9_-]{43}$`)),
      paid_at: null,
      environment: "sandbox",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const { barcode, digitable_line } = res.body.boleto;
    expect(barcodeFromLine(digitable_line)).toBe(barcode);
    expect(barcode.slice(5, 9)).toBe(dueDateFactor(today));
    expect(Number(barcode.slice(9, 19))).toBe(due.total);
    expect(barcode.slice(19)).toBe(`000000${res.body.boleto.our_number}17`);
    // The shared sandbox account's sequence spans tenants (other tests issue boletos meanwhile): it only grows.
    const second = await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto", installment_ids: [installments[1]!.id] });
    expect(BigInt(second.body.boleto.our_number)).toBeGreaterThan(BigInt(res.body.boleto.our_number));
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "charge.created" } })).toBe(2);
  });

  it("Pix cob: a dynamic BR Code that parses back with its CRC, the amount, a BCB txid and an expiry", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const future = installments.find((i) => dueDateOf(i) > todayInBrazil())!;
    expect(future).toBeDefined();
    const res = await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "pix", installment_ids: [future.id], pix: { kind: "cob", expires_in: 3600 } });
    expect(res.status).toBe(201);
    const { pix, amount } = res.body;
    expect(amount).toBe(Number(future.amount)); // not late on its own due date: the face amount
    expect(isValidTxid(pix.txid)).toBe(true);
    expect(Date.parse(pix.expires_at) - Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(3599_000);
    const fields = parseBrCode(pix.brcode);
    expect(fields).toMatchObject({
      "00": "01",
      "01": "12",
      "26": { "00": "br.gov.bcb.pix", "25": pix.location },
      "53": "986",
      "54": `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, "0")}`,
      "58": "BR",
      "59": "CREDIT PLATFORM SANDBOX",
      "60": "SAO PAULO",
      "62": { "05": "***" },
    });
    // pix.qr_code: a PNG a QR reader reads back as the BR Code.
    const png = PNG.sync.read(Buffer.from(pix.qr_code.replace(/^data:image\/png;base64,/, ""), "base64"));
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(pix.brcode);
  });

  it("sandbox pay: full, then 409; the installment, the contract's balances, the payment's allocation and the events", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const charge = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto" })).body;
    const before = (await call(getContract, { base: t.base, path: `/v1/contracts/${contract.id}`, headers: t.headers, params: { id: contract.id } })).body;
    const res = await post(t, pay, `/v1/sandbox/charges/${charge.id}/pay`, {}, { id: charge.id });
    expect(res.status).toBe(200);
    const due = charge.breakdown[0];
    expect(res.body.charge).toMatchObject({ status: "paid", amount_paid: charge.amount, paid_at: expect.any(String) });
    expect(res.body.payment).toEqual({
      id: expect.stringMatching(/^pay_/),
      object: "payment",
      contract_id: contract.id,
      charge_id: charge.id,
      source: "boleto",
      settlement_id: null,
      assignment_id: null,
      amount: charge.amount,
      allocations: [{ installment_id: installments[0]!.id, number: 1, fine: due.fine, late_interest: due.late_interest, interest: due.interest, principal: due.principal, total: due.total, settles: true }],
      credit: 0,
      credit_applied: 0,
      competence: null,
      paid_at: expect.any(String),
      environment: "sandbox",
      created_at: expect.any(String),
    });
    const installment = await db().installment.findUniqueOrThrow({ where: { id: installments[0]!.id } });
    expect({ status: installment.status, paid: Number(installment.paidAmount), fine: Number(installment.finePaid), late: Number(installment.lateInterestPaid) }).toEqual({
      status: "paid",
      paid: Number(installments[0]!.amount),
      fine: due.fine,
      late: due.late_interest,
    });
    const after = (await call(getContract, { base: t.base, path: `/v1/contracts/${contract.id}`, headers: t.headers, params: { id: contract.id } })).body;
    expect({ paid: after.amount_paid, outstanding: after.outstanding_balance }).toEqual({ paid: before.amount_paid + charge.amount, outstanding: before.outstanding_balance - Number(installments[0]!.amount) });
    const types = (await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: { in: ["installment.paid", "payment.received", "charge.paid"] } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((e) => e.type);
    expect(types).toEqual(["installment.paid", "payment.received", "charge.paid"]);

    const again = await post(t, pay, `/v1/sandbox/charges/${charge.id}/pay`, {}, { id: charge.id });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "invalid_transition", current_status: "paid" });
    expect(await db().payment.count({ where: { chargeId: charge.id } })).toBe(1);
    const listed = await call(listPayments, { base: t.base, path: `/v1/payments?charge_id=${charge.id}`, headers: t.headers });
    expect(listed.body.data).toEqual([res.body.payment]);
    const one = await call(getPayment, { base: t.base, path: `/v1/payments/${res.body.payment.id}`, headers: t.headers, params: { id: res.body.payment.id } });
    expect(one.body).toEqual(res.body.payment);
  });

  it("partial then the rest; an overpayment becomes the contract's credit", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const charge = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "pix", installment_ids: [installments[0]!.id, installments[1]!.id] })).body;
    const partial = await post(t, pay, `/v1/sandbox/charges/${charge.id}/pay`, { amount: 50000 }, { id: charge.id });
    expect(partial.body.charge).toMatchObject({ status: "partially_paid", amount_paid: 50000 });
    expect(partial.body.payment.allocations).toHaveLength(1);
    expect(partial.body.payment.allocations[0]).toMatchObject({ installment_id: installments[0]!.id, settles: false, total: 50000 });

    const rest = await post(t, pay, `/v1/sandbox/charges/${charge.id}/pay`, { amount: 1_000_000 }, { id: charge.id });
    expect(rest.body.charge.status).toBe("paid");
    const allocated = rest.body.payment.allocations.reduce((s: number, a: { total: number }) => s + a.total, 0);
    expect(rest.body.payment.credit).toBe(1_000_000 - allocated);
    expect(rest.body.payment.credit).toBeGreaterThan(0);
    const row = await db().contract.findUniqueOrThrow({ where: { id: contract.id } });
    expect(Number(row.creditBalance)).toBe(rest.body.payment.credit);
    expect((await db().installment.findMany({ where: { id: { in: [installments[0]!.id, installments[1]!.id] } } })).map((i) => i.status)).toEqual(["paid", "paid"]);
  });

  it("paid in part while late: late interest ran on the whole installment until then, on the rest after", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const first = installments[0]!; // due months ago
    const dueOn = dueDateOf(first);
    const face = Number(first.amount);
    const charge = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "pix", installment_ids: [first.id] })).body;
    await db().charge.update({ where: { id: charge.id }, data: { createdAt: new Date(`${addDays(dueOn, 18)}T12:00:00Z`) } }); // issued back then
    // 30 days late: fine 2% of the face, late interest 1% of it; half the face is left open.
    const fine = Math.round(face * 0.02);
    const paidOn = addDays(dueOn, 30);
    const partial = await post(t, pay, `/v1/sandbox/charges/${charge.id}/pay`, { amount: fine + Math.round(face * 0.01) + Math.round(face / 2), paid_on: paidOn }, { id: charge.id });
    expect(partial.status, partial.text).toBe(200);
    const [line] = partial.body.payment.allocations;
    expect(line).toMatchObject({ fine, late_interest: Math.round(face * 0.01), settles: false });
    const open = face - line.interest - line.principal;
    expect(await db().installment.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({ lateInterestAccrued: BigInt(line.late_interest), lateInterestAccruedOn: new Date(`${paidOn}T00:00:00Z`) });

    // 30 more days: 1% of what was left open since — not 1% × 60/30 of it less what was paid.
    const paidLater = addDays(paidOn, 30);
    const rest = await post(t, pay, `/v1/sandbox/charges/${charge.id}/pay`, { amount: open + Math.round(open * 0.01), paid_on: paidLater }, { id: charge.id });
    expect(rest.body.payment.allocations[0]).toMatchObject({ fine: 0, late_interest: Math.round(open * 0.01), total: open + Math.round(open * 0.01), settles: true });
    expect(rest.body.payment.credit).toBe(0);
    expect(await db().installment.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      status: "paid",
      paidAmount: BigInt(face),
      finePaid: BigInt(fine),
      lateInterestPaid: BigInt(line.late_interest + Math.round(open * 0.01)),
      lateInterestAccruedOn: new Date(`${paidLater}T00:00:00Z`),
    });
  });

  it("a payment dated before the last one made while late (a provider's late notice) leaves the late-interest checkpoint where it is", async () => {
    const t = await creditTenant();
    const { contract, installments } = await contractOf(t);
    const first = installments[0]!; // due months ago
    const dueOn = dueDateOf(first);
    const issue = async () => {
      const charge = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "pix", installment_ids: [first.id] })).body;
      await db().charge.update({ where: { id: charge.id }, data: { createdAt: new Date(`${addDays(dueOn, 1)}T12:00:00Z`) } });
      return charge.id as string;
    };
    const a = await issue();
    const paidOn = addDays(dueOn, 30);
    expect((await post(t, pay, `/v1/sandbox/charges/${a}/pay`, { amount: 10_000, paid_on: paidOn }, { id: a })).status).toBe(200);
    const checkpoint = await db().installment.findUniqueOrThrow({ where: { id: first.id } });
    expect(checkpoint.lateInterestAccruedOn).toEqual(new Date(`${paidOn}T00:00:00Z`));
    // A charge for the rest (one issued before would have been canceled by that payment), paid a week before it (23 days
    // late) and recorded now: nothing more of late interest is due to that day than was accrued already; the checkpoint
    // does not go back (it would count that week twice from then on).
    const b = await issue();
    const late = await post(t, pay, `/v1/sandbox/charges/${b}/pay`, { amount: 5_000, paid_on: addDays(dueOn, 23) }, { id: b });
    expect(late.body.payment.allocations[0]).toMatchObject({ fine: 0, late_interest: 0, total: 5_000 });
    expect(await db().installment.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      lateInterestAccrued: checkpoint.lateInterestAccrued,
      lateInterestAccruedOn: new Date(`${paidOn}T00:00:00Z`),
      paidAmount: checkpoint.paidAmount + 5_000n,
    });
  });

  it("cancel: then paying or canceling again is 409 and changes nothing", async () => {
    const t = await creditTenant();
    const { contract } = await contractOf(t);
    const charge = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto" })).body;
    const canceled = await post(t, cancelCharge, `/v1/charges/${charge.id}/cancel`, undefined, { id: charge.id });
    expect(canceled.body).toMatchObject({ status: "canceled" });
    expect((await post(t, pay, `/v1/sandbox/charges/${charge.id}/pay`, {}, { id: charge.id })).status).toBe(409);
    expect((await post(t, cancelCharge, `/v1/charges/${charge.id}/cancel`, undefined, { id: charge.id })).status).toBe(409);
    expect(await db().payment.count({ where: { chargeId: charge.id } })).toBe(0);
    const listed = await call(listCharges, { base: t.base, path: `/v1/charges?status=canceled&contract_id=${contract.id}`, headers: t.headers });
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([charge.id]);
  });

  it("validates: only open installments of the contract, a due date not in the past, pix options only for pix", async () => {
    const t = await creditTenant();
    const { contract } = await contractOf(t);
    const other = await contractOf(t);
    const foreign = await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto", installment_ids: [other.installments[0]!.id] });
    expect(foreign.body.errors).toEqual([{ param: "installment_ids.0", in: "body", message: "Not an open installment of this contract" }]);
    const past = await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto", due_date: "2026-01-01" });
    expect(past.body.errors).toEqual([{ param: "due_date", in: "body", message: "Must be today or later" }]);
    const mixed = await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto", pix: { kind: "cob" } });
    expect(mixed.status).toBe(400);
    // Late charges run to the due date and a boleto's factor ends in 2049: a year past the installments at most.
    const lastDue = dueDateOf(await db().installment.findFirstOrThrow({ where: { contractId: contract.id }, orderBy: { number: "desc" } }));
    const far = await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto", due_date: "2199-12-31", installment_ids: [(await db().installment.findFirstOrThrow({ where: { contractId: contract.id }, orderBy: { number: "desc" } })).id] });
    const limit = `${Number(lastDue.slice(0, 4)) + 1}${lastDue.slice(4)}`;
    expect([far.status, far.body.errors]).toEqual([400, [{ param: "due_date", in: "body", message: `Must be on or before ${limit} (a year past the later of today and the installments' due dates)` }]]);
    expect(await db().charge.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });

  it("isolation and permissions; production without a collection account; sandbox pay is 404 on the production address", async () => {
    const t = await creditTenant();
    const { contract } = await contractOf(t);
    const charge = (await post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto" })).body;
    const other = await creditTenant();
    for (const who of [{ base: other.base, headers: other.headers }]) {
      expect((await call(getCharge, { ...who, path: `/v1/charges/${charge.id}`, params: { id: charge.id } })).status).toBe(404);
      expect((await call(cancelCharge, { ...who, path: `/v1/charges/${charge.id}/cancel`, params: { id: charge.id } })).status).toBe(404);
      expect((await call(pay, { ...who, path: `/v1/sandbox/charges/${charge.id}/pay`, params: { id: charge.id }, json: {} })).status).toBe(404);
      expect((await call(createCharge, { ...who, path: "/v1/charges", json: { contract_id: contract.id, method: "pix" } })).status).toBe(404);
    }
    const reader = await newKey(t.tenant.id, "sandbox", ["collections:read"]);
    expect((await call(createCharge, { base: t.base, path: "/v1/charges", headers: bearer(reader.key, t.tenant.id), json: { contract_id: contract.id, method: "pix" } })).status).toBe(403);
    expect((await call(getCharge, { base: t.base, path: `/v1/charges/${charge.id}`, headers: bearer(reader.key, t.tenant.id), params: { id: charge.id } })).status).toBe(200);

    const live = await newKey(t.tenant.id, "production", ["read", "write"]);
    const prod = await call(createCharge, { base: PRODUCTION, path: "/v1/charges", headers: bearer(live.key, t.tenant.id), json: { contract_id: contract.id, method: "boleto" } });
    expect(prod.body).toMatchObject({ status: 409, code: "collection_not_configured" });
    const prodPay = await call(pay, { base: PRODUCTION, path: `/v1/sandbox/charges/${charge.id}/pay`, params: { id: charge.id }, json: {} });
    expect(prodPay.status).toBe(404);
  });

  it("a contract that closes while a charge is being issued gets none: 409, nothing written", async () => {
    const t = await creditTenant();
    const { contract } = await contractOf(t);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // A settlement or withdrawal closing the contract: it holds the row, then commits the new status.
    const closing = db().$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT id FROM contracts WHERE id = ${contract.id} FOR UPDATE`;
        locked();
        await held;
        await tx.contract.update({ where: { id: contract.id }, data: { status: "settled" } });
      },
      { timeout: 30_000 },
    );
    await isLocked;
    const charging = post(t, createCharge, "/v1/charges", { contract_id: contract.id, method: "boleto" });
    // The charge computed from the contract as it was and now waits on the row to write it.
    for (;;) {
      const [row] = await db().$queryRaw<{ waiting: number }[]>`
        SELECT count(*)::int AS waiting FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO charges%'`;
      if (row!.waiting > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    release();
    await closing;
    const res = await charging;
    expect([res.status, res.body.code, res.body.detail]).toEqual([409, "contract_not_active", "The contract closed while the charge was being issued"]);
    expect(await db().charge.count({ where: { contractId: contract.id } })).toBe(0);
    expect(await db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "charge.created" } })).toBe(0);
  });

  it("a settlement's charge is canceled with its settlement, not alone", async () => {
    const t = await creditTenant();
    const { contract } = await contractOf(t);
    const settlement = (await post(t, createSettlement, "/v1/settlements", { contract_id: contract.id, type: "full", payment_method: "boleto" })).body;
    const res = await post(t, cancelCharge, `/v1/charges/${settlement.charge_id}/cancel`, undefined, { id: settlement.charge_id });
    expect([res.status, res.body.code, res.body.detail]).toEqual([409, "conflict", `The charge collects settlement ${settlement.id}: cancel the settlement instead`]);
    expect([res.body.retryable, res.headers.get("retry-after")]).toEqual([undefined, null]); // a conflict that stays
    expect((await db().charge.findUniqueOrThrow({ where: { id: settlement.charge_id } })).status).toBe("pending");
  });
});
