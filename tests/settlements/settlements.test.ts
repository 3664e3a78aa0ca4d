import { describe, expect, it } from "vitest";
import { GET as getQuote } from "@/app/v1/contracts/[id]/payoff-quote/route";
import { GET as getContract } from "@/app/v1/contracts/[id]/route";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { POST as cancelSettlement } from "@/app/v1/settlements/[id]/cancel/route";
import { GET as getSettlement } from "@/app/v1/settlements/[id]/route";
import { POST as createSettlement, GET as listSettlements } from "@/app/v1/settlements/route";
import { todayInBrazil } from "@/lib/clock";
import { amountsDue } from "@/lib/collection/allocation";
import { runCollectionJob } from "@/lib/collection/collection-job";
import { allocatable } from "@/lib/collection/allocation";
import { db } from "@/lib/db/client";
import { addDays, addMonths, earlyPayoff } from "@/lib/finance";
import { clearingDeadline } from "@/lib/settlements/settlements";
import { centavos, isoDate } from "@/lib/serialize";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { creditTenant, LATE_INSTALLMENTS, lateContractDates, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// Payoff quotes and settlements through /v1 on the sandbox: the quote against the finance library, full and
// partial settlements (both ways) and their effect on installments, contract and payments, settlement charges,
// the one-pending rule under a race, the lapse job, isolation and permissions.

const LATE = { fineRate: "0.02", monthlyLateInterestRate: "0.01" }; // inss_payroll (lib/products.ts)
const today = () => todayInBrazil();

/** An INSS contract; `late`: disbursed months ago (installments 1–8 late today, 9–12 to come, none due today:
 *  lateContractDates); else disbursed today. */
async function contractOf(t: CreditTenant, late: boolean) {
  const dates = late ? lateContractDates() : { disbursement_date: today(), first_due_date: addMonths(today(), 1) };
  const { proposal } = await signedProposal(t, dates);
  const res = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
  expect(res.status).toBe(201);
  return res.body as { id: string; monthly_rate: string; outstanding_balance: number };
}

const quote = (t: CreditTenant, id: string, date?: string) =>
  call(getQuote, { base: t.base, path: `/v1/contracts/${id}/payoff-quote${date ? `?date=${date}` : ""}`, headers: t.headers, params: { id } });
const settle = (t: CreditTenant, json: Record<string, unknown>, headers = t.headers) => call(createSettlement, { base: t.base, path: "/v1/settlements", headers, json });

describe("payoff quote", () => {
  it("each open installment at its present value (face when due), plus late charges, adding up to the total", async () => {
    const t = await creditTenant();
    const contract = await contractOf(t, true);
    const res = await quote(t, contract.id);
    expect(res.status).toBe(200);
    const open = await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" } });
    const expected = open.map((i) => {
      const due = amountsDue(allocatable(i), LATE, today());
      const face = centavos(i.amount);
      // Discounted to its nominal due date (the period its interest ran to), due by its actual one.
      const pv = earlyPayoff({ monthlyRate: contract.monthly_rate, payoffDate: today(), installments: [{ due_date: isoDate(i.dueDate), nominal_due_date: isoDate(i.nominalDueDate), payment: face }] }).amount;
      return { installment_id: i.id, number: i.number, due_date: isoDate(i.dueDate), nominal_due_date: isoDate(i.nominalDueDate), open_amount: face, present_value: pv, discount: face - pv, fine: due.fine, late_interest: due.late_interest, total: pv + due.fine + due.late_interest };
    });
    const sum = (k: keyof (typeof expected)[number]) => expected.reduce((s, l) => s + (l[k] as number), 0);
    expect(res.body).toEqual({
      object: "payoff_quote",
      contract_id: contract.id,
      date: today(),
      monthly_rate: contract.monthly_rate,
      installments: expected,
      outstanding_amount: sum("open_amount"),
      present_value: sum("present_value"),
      discount: sum("discount"),
      late_charges: sum("fine") + sum("late_interest"),
      credit_applied: 0,
      amount: sum("total"),
      valid_until: new Date(`${today()}T23:59:59.999-03:00`).toISOString(),
    });
    // Late ones at face value with charges; one due today at face value without (it is not late); future ones discounted.
    const late = expected.filter((l) => l.due_date < today());
    const future = expected.filter((l) => l.due_date > today());
    expect([late.length, future.length]).toEqual([LATE_INSTALLMENTS, 12 - LATE_INSTALLMENTS]); // none due today
    expect(late.every((l) => l.discount === 0 && l.fine > 0)).toBe(true);
    expect(expected.filter((l) => l.due_date === today()).every((l) => l.discount === 0 && l.fine === 0)).toBe(true);
    expect(future.every((l) => l.discount > 0 && l.fine === 0)).toBe(true);
  });

  it("refuses a date in the past, after the last due date, or malformed (400, in the query)", async () => {
    const t = await creditTenant();
    const contract = await contractOf(t, false);
    for (const [date, message] of [
      [addDays(today(), -1), "Must be today or later"],
      [addMonths(today(), 30), expect.stringMatching(/^Must be on or before \d{4}-\d{2}-\d{2} \(the last due date, or 30 days from today when that is later\)$/)],
      ["2026-02-30", "Must be a valid date YYYY-MM-DD"],
    ] as const) {
      const res = await quote(t, contract.id, date);
      expect(res.status, date).toBe(400);
      expect(res.body.errors).toEqual([{ param: "date", in: "query", message }]);
    }
  });
});

describe("a contract past its last due date (every installment late)", () => {
  it("is quoted at face value plus late charges, up to 30 days ahead, and settled", async () => {
    const t = await creditTenant();
    const { proposal } = await signedProposal(t, { disbursement_date: "2025-06-02", first_due_date: "2025-07-02" }); // 12 months: the last due 2026-06-02
    const contract = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body;
    const res = await quote(t, contract.id);
    expect(res.status).toBe(200);
    expect(res.body.installments).toHaveLength(12);
    expect(res.body.installments.every((l: { discount: number; fine: number }) => l.discount === 0 && l.fine > 0)).toBe(true);
    const later = await quote(t, contract.id, addDays(today(), 30));
    expect(later.status).toBe(200);
    expect(later.body.amount).toBeGreaterThan(res.body.amount); // more late interest
    expect((await quote(t, contract.id, addDays(today(), 31))).status).toBe(400);
    const done = await settle(t, { contract_id: contract.id, type: "full", payment_method: "received" });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ status: "completed", amount: res.body.amount });
  });
});

describe("settlements", () => {
  it("full, funds received: completed at once; installments paid at present value; contract settled and closed; then 409", async () => {
    const t = await creditTenant();
    const contract = await contractOf(t, true);
    const q = (await quote(t, contract.id)).body;
    const res = await settle(t, { contract_id: contract.id, type: "full", payment_method: "received" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^stl_/),
      object: "settlement",
      contract_id: contract.id,
      batch_id: null,
      type: "full",
      status: "completed",
      date: today(),
      amount: q.amount,
      payment_method: "received",
      reduce: null,
      quote: q,
      reschedule: null,
      charge_id: null,
      payment_id: expect.stringMatching(/^pay_/),
      cancel_reason: null,
      completed_at: expect.any(String),
      canceled_at: null,
      environment: "sandbox",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const installments = await db().installment.findMany({ where: { contractId: contract.id } });
    expect(installments.every((i) => i.status === "paid" && i.paidAmount === i.amount)).toBe(true);
    const after = (await call(getContract, { base: t.base, path: `/v1/contracts/${contract.id}`, headers: t.headers, params: { id: contract.id } })).body;
    expect(after).toMatchObject({ status: "settled", outstanding_balance: 0, amount_paid: q.amount });
    const payment = await db().payment.findUniqueOrThrow({ where: { id: res.body.payment_id } });
    expect({ amount: Number(payment.amount), source: payment.source, settlement: payment.settlementId, credit: Number(payment.credit) }).toEqual({ amount: q.amount, source: "settlement", settlement: res.body.id, credit: 0 });
    expect((payment.allocations as { discount: number }[]).reduce((s, a) => s + a.discount, 0)).toBe(q.discount);
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: { in: ["settlement.completed", "contract.closed", "payment.received"] } } });
    expect(events.map((e) => e.type).sort()).toEqual(["contract.closed", "payment.received", "settlement.completed"]);

    const again = await settle(t, { contract_id: contract.id, type: "full", payment_method: "received" });
    expect(again.body).toMatchObject({ status: 409, code: "contract_not_active", current_status: "settled" });
    expect((await quote(t, contract.id)).body.code).toBe("contract_not_active");
    expect(await db().settlement.count({ where: { contractId: contract.id } })).toBe(1);
  });

  it("partial, reduce installment_amount and term: the remaining installments rescheduled on the same dates", async () => {
    const t = await creditTenant();
    for (const reduce of ["installment_amount", "term"] as const) {
      const contract = await contractOf(t, false);
      const before = await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" } });
      const q = (await quote(t, contract.id)).body;
      const amount = Math.floor(q.present_value / 3);
      const res = await settle(t, { contract_id: contract.id, type: "partial", amount, reduce, payment_method: "received" });
      expect(res.status, res.text).toBe(201);
      const { reschedule } = res.body;
      expect(res.body).toMatchObject({ status: "completed", type: "partial", reduce, amount });
      expect(reschedule.balance_before).toBe(q.present_value);
      expect(reschedule.balance_after).toBe(q.present_value - amount);
      const rows = await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" } });
      const kept = rows.filter((r) => r.status === "open");
      expect(kept.map((r) => [r.id, isoDate(r.dueDate), Number(r.principal), Number(r.interest), Number(r.amount)])).toEqual(
        reschedule.schedule.map((r: { installment_id: string; due_date: string; amortization: number; interest: number; payment: number }) => [r.installment_id, r.due_date, r.amortization, r.interest, r.payment]),
      );
      expect(kept.map((r) => isoDate(r.dueDate))).toEqual(before.slice(0, kept.length).map((r) => isoDate(r.dueDate)));
      expect(kept.reduce((s, r) => s + Number(r.principal), 0)).toBe(reschedule.balance_after);
      const canceled = rows.filter((r) => r.status === "canceled").map((r) => r.id);
      expect(canceled).toEqual(reschedule.dropped_installment_ids);
      if (reduce === "installment_amount") {
        expect(canceled).toEqual([]);
        expect(Number(kept[0]!.amount)).toBeLessThan(Number(before[0]!.amount));
      } else {
        expect(canceled.length).toBeGreaterThan(0);
        expect(Number(kept[0]!.amount)).toBeLessThanOrEqual(Number(before[0]!.amount));
      }
      const after = (await call(getContract, { base: t.base, path: `/v1/contracts/${contract.id}`, headers: t.headers, params: { id: contract.id } })).body;
      expect(after).toMatchObject({ status: "active", amount_paid: amount, outstanding_balance: kept.reduce((s, r) => s + Number(r.amount), 0) });
    }
  });

  it("partial: refused while installments up to the date are open (409), or for an amount that pays everything (400); nothing changes", async () => {
    const t = await creditTenant();
    const late = await contractOf(t, true);
    const due = await settle(t, { contract_id: late.id, type: "partial", amount: 10_000, reduce: "term", payment_method: "received" });
    expect(due.body).toMatchObject({ status: 409, code: "open_installments_due" });
    const contract = await contractOf(t, false);
    const q = (await quote(t, contract.id)).body;
    const all = await settle(t, { contract_id: contract.id, type: "partial", amount: q.present_value, reduce: "term", payment_method: "received" });
    expect(all.body.errors).toEqual([{ param: "amount", in: "body", message: `Pays the whole balance (${q.present_value} centavos on ${today()}): use type full` }]);
    // Leaving a few centavos over the remaining installments would make R$ 0,00 ones that never close the contract.
    const crumbs = await settle(t, { contract_id: contract.id, type: "partial", amount: q.present_value - 5, reduce: "installment_amount", payment_method: "received" });
    expect(crumbs.status).toBe(400);
    expect(crumbs.body.errors).toEqual([{ param: "amount", in: "body", message: expect.stringMatching(/^Leaves 5 centavos, too little for \d+ installments \(installment \d+ would be 0\)/) }]);
    const missing = await settle(t, { contract_id: contract.id, type: "partial", payment_method: "received" });
    expect(missing.body.errors.map((e: { param: string }) => e.param).sort()).toEqual(["amount", "reduce"]);
    const extra = await settle(t, { contract_id: contract.id, type: "full", amount: 5, payment_method: "received" });
    expect(extra.status).toBe(400);
    expect(await db().settlement.count({ where: { tenantId: t.tenant.id } })).toBe(0);
    expect(await db().payment.count({ where: { tenantId: t.tenant.id } })).toBe(0);
  });

  it("funds received settle today: a later date is 400 (it would price late charges for days the money was there)", async () => {
    const t = await creditTenant();
    const contract = await contractOf(t, true);
    const res = await settle(t, { contract_id: contract.id, type: "full", payment_method: "received", date: addDays(today(), 5) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ param: "date", in: "body", message: "Funds received settle today: omit date (or send today's), or use boleto or pix for a later date" }]);
    expect(await db().settlement.count({ where: { contractId: contract.id } })).toBe(0);
    // A quote may look to the last due date; a settlement, which holds the contract while pending, 30 days at most.
    const far = await settle(t, { contract_id: contract.id, type: "full", payment_method: "boleto", date: addDays(today(), 31) });
    expect([far.status, far.body.errors]).toEqual([400, [{ param: "date", in: "body", message: `A settlement is dated at most 30 days ahead (on or before ${addDays(today(), 30)}); a payoff quote may look further` }]]);
    expect((await settle(t, { contract_id: contract.id, type: "full", payment_method: "boleto", date: addDays(today(), 5) })).status).toBe(201);
  });

  it("by boleto: pending with its charge; paying the charge completes it and closes the contract", async () => {
    const t = await creditTenant();
    const contract = await contractOf(t, true);
    const res = await settle(t, { contract_id: contract.id, type: "full", payment_method: "boleto" });
    expect(res.body).toMatchObject({ status: "pending", payment_method: "boleto", charge_id: expect.stringMatching(/^chg_/), payment_id: null });
    const charge = await db().charge.findUniqueOrThrow({ where: { id: res.body.charge_id } });
    expect({ amount: Number(charge.amount), settlement: charge.settlementId, method: charge.method }).toEqual({ amount: res.body.amount, settlement: res.body.id, method: "boleto" });
    const second = await settle(t, { contract_id: contract.id, type: "full", payment_method: "received" });
    expect(second.body).toMatchObject({ status: 409, code: "conflict", settlement_id: res.body.id });

    const paid = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${charge.id}/pay`, headers: t.headers, params: { id: charge.id }, json: {} });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.charge).toMatchObject({ status: "paid", settlement_id: res.body.id });
    expect(paid.body.payment).toMatchObject({ settlement_id: res.body.id, source: "boleto", amount: res.body.amount, charge_id: charge.id });
    const done = (await call(getSettlement, { base: t.base, path: `/v1/settlements/${res.body.id}`, headers: t.headers, params: { id: res.body.id } })).body;
    expect(done).toMatchObject({ status: "completed", payment_id: paid.body.payment.id });
    expect((await db().contract.findUniqueOrThrow({ where: { id: contract.id } })).status).toBe("settled");
  });

  it("a payment that reaches an installment before the settlement's charge is paid: the rest of the money becomes credit", async () => {
    const t = await creditTenant();
    const contract = await contractOf(t, true);
    const made = (await settle(t, { contract_id: contract.id, type: "full", payment_method: "pix" })).body;
    const first = await db().installment.findFirstOrThrow({ where: { contractId: contract.id, number: 1 } });
    const single = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.id, method: "boleto", installment_ids: [first.id] } });
    const paidFirst = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${single.body.id}/pay`, headers: t.headers, params: { id: single.body.id }, json: {} });
    expect(paidFirst.status).toBe(200);
    const payoffNow = (await quote(t, contract.id)).body.amount;
    expect(payoffNow).toBe(made.amount - single.body.amount);

    const paid = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${made.charge_id}/pay`, headers: t.headers, params: { id: made.charge_id }, json: {} });
    expect(paid.body.payment).toMatchObject({ amount: made.amount, credit: made.amount - payoffNow, settlement_id: made.id });
    const after = await db().contract.findUniqueOrThrow({ where: { id: contract.id } });
    expect({ status: after.status, outstanding: Number(after.outstandingBalance), credit: Number(after.creditBalance), paid: Number(after.amountPaid) }).toEqual({
      status: "settled",
      outstanding: 0,
      credit: made.amount - payoffNow,
      paid: single.body.amount + payoffNow,
    });
  });

  it("cancel: the settlement and its charge; then 409; the collection job cancels one past its date", async () => {
    const t = await creditTenant();
    const contract = await contractOf(t, true);
    const res = await settle(t, { contract_id: contract.id, type: "full", payment_method: "pix" });
    const canceled = await call(cancelSettlement, { base: t.base, path: `/v1/settlements/${res.body.id}/cancel`, headers: t.headers, params: { id: res.body.id }, json: { reason: "borrower gave up" } });
    expect(canceled.body).toMatchObject({ status: "canceled", cancel_reason: "borrower gave up", canceled_at: expect.any(String) });
    expect((await db().charge.findUniqueOrThrow({ where: { id: res.body.charge_id } })).status).toBe("canceled");
    const again = await call(cancelSettlement, { base: t.base, path: `/v1/settlements/${res.body.id}/cancel`, headers: t.headers, params: { id: res.body.id }, json: {} });
    expect(again.body).toMatchObject({ status: 409, code: "invalid_transition" });

    const lapsing = await settle(t, { contract_id: contract.id, type: "full", payment_method: "boleto" });
    expect(lapsing.body.status).toBe("pending");
    // Dated yesterday: a boleto paid then is cleared and notified a business day or two later — still pending.
    const dated = (days: number) => db().settlement.update({ where: { id: lapsing.body.id }, data: { settlementDate: new Date(`${addDays(todayInBrazil(), -days)}T00:00:00Z`) } });
    await dated(1);
    await runCollectionJob();
    expect((await db().settlement.findUniqueOrThrow({ where: { id: lapsing.body.id } })).status).toBe("pending");
    expect(clearingDeadline("2026-11-20")).toBe("2026-11-24"); // a Friday: Monday, then Tuesday
    expect(clearingDeadline("2026-12-24")).toBe("2026-12-29"); // Christmas and the weekend are not clearing days: Monday, Tuesday
    // Past its clearing days: lapsed.
    await dated(10);
    const job = await runCollectionJob();
    expect(job.lapsedSettlements).toBeGreaterThanOrEqual(1);
    const lapsed = await db().settlement.findUniqueOrThrow({ where: { id: lapsing.body.id } });
    expect({ status: lapsed.status, reason: lapsed.cancelReason }).toEqual({ status: "canceled", reason: "lapsed: not paid by its date" });
    expect((await db().charge.findUniqueOrThrow({ where: { id: lapsing.body.charge_id } })).status).toBe("canceled");
  });

  it("two racing full settlements of one contract: exactly one is made", async () => {
    const t = await creditTenant();
    const contract = await contractOf(t, true);
    const results = await Promise.all([1, 2, 3].map(() => settle(t, { contract_id: contract.id, type: "full", payment_method: "received" })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await db().settlement.count({ where: { contractId: contract.id } })).toBe(1);
    expect(await db().payment.count({ where: { contractId: contract.id } })).toBe(1);
  });

  it("isolation and permissions", async () => {
    const t = await creditTenant();
    const contract = await contractOf(t, true);
    const made = await settle(t, { contract_id: contract.id, type: "full", payment_method: "boleto" });
    const other = await creditTenant();
    expect((await quote(other, contract.id)).status).toBe(404);
    expect((await settle(other, { contract_id: contract.id, type: "full", payment_method: "received" })).status).toBe(404);
    expect((await call(getSettlement, { base: other.base, path: `/v1/settlements/${made.body.id}`, headers: other.headers, params: { id: made.body.id } })).status).toBe(404);
    expect((await call(cancelSettlement, { base: other.base, path: `/v1/settlements/${made.body.id}/cancel`, headers: other.headers, params: { id: made.body.id }, json: {} })).status).toBe(404);
    expect((await call(listSettlements, { base: other.base, path: "/v1/settlements", headers: other.headers })).body.data).toEqual([]);
    // The same tenant's production credential sees none of the sandbox's contracts and settlements.
    const live = { ...t, base: PRODUCTION, headers: bearer((await newKey(t.tenant.id, "production", ["read", "write"])).key, t.tenant.id) };
    expect((await quote(live, contract.id)).status).toBe(404);
    expect((await settle(live, { contract_id: contract.id, type: "full", payment_method: "received" })).status).toBe(404);
    expect((await call(getSettlement, { base: PRODUCTION, path: `/v1/settlements/${made.body.id}`, headers: live.headers, params: { id: made.body.id } })).status).toBe(404);
    expect((await call(cancelSettlement, { base: PRODUCTION, path: `/v1/settlements/${made.body.id}/cancel`, headers: live.headers, params: { id: made.body.id }, json: {} })).status).toBe(404);
    expect((await call(listSettlements, { base: PRODUCTION, path: "/v1/settlements", headers: live.headers })).body.data).toEqual([]);
    const reader = await newKey(t.tenant.id, "sandbox", ["settlements:read"]);
    expect((await settle(t, { contract_id: contract.id, type: "full", payment_method: "received" }, bearer(reader.key, t.tenant.id))).status).toBe(403);
    expect((await quote({ ...t, headers: bearer(reader.key, t.tenant.id) }, contract.id)).status).toBe(200);
    const list = await call(listSettlements, { base: t.base, path: `/v1/settlements?contract_id=${contract.id}`, headers: t.headers });
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([made.body.id]);
    expect((await db().settlement.findUniqueOrThrow({ where: { id: made.body.id } })).status).toBe("pending");
  });
});
