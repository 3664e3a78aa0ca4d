import { describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { allocatable, amountsDue } from "@/lib/collection/allocation";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { addDays, addMonths, isLate, lateCharges, weekday } from "@/lib/finance";
import { isoDate } from "@/lib/serialize";
import { call } from "../helpers/http";
import { creditTenant, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// A cobv's fine_rate and interest_rate_monthly are what the PSP adds after its due date, on its whole amount. A charge
// with nothing late in it carries the contract's; one whose amount already includes a fine or late interest, or a
// settlement's payoff, carries "0" — the PSP would otherwise charge them on top of what the amount already holds.
// The rates are carried only when the PSP, adding them from the charge's due date on its whole amount, never asks more
// than the platform reckons: every installment falls due on or before the charge's due date and is not late on it.

async function contract() {
  const t = await creditTenant();
  // Disbursed four months ago: its first installments are late, the later ones not yet due.
  const disbursement = addMonths(todayInBrazil(), -4);
  const { proposal } = await signedProposal(t, { disbursement_date: disbursement, first_due_date: addMonths(disbursement, 1) });
  const id = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body.id as string;
  const installments = await db().installment.findMany({ where: { contractId: id }, orderBy: { number: "asc" } });
  return { t, id, installments };
}

describe("Pix cobv: late rates the PSP adds after the due date", () => {
  it("the contract's for a charge of installments not yet late; 0 when the amount already has late charges in it", async () => {
    const { t, id, installments } = await contract();
    const today = todayInBrazil();
    const late = installments.find((i) => isoDate(i.dueDate) < today)!;
    const future = installments.find((i) => isoDate(i.dueDate) > today)!;
    const charge = async (ids: string[]) => {
      const res = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: id, method: "pix", installment_ids: ids } });
      expect(res.status).toBe(201);
      return res.body as { pix: { kind: string; fine_rate: string; interest_rate_monthly: string }; breakdown: { fine: number; late_interest: number }[] };
    };

    const onTime = await charge([future.id]);
    expect(onTime.breakdown).toMatchObject([{ fine: 0, late_interest: 0 }]);
    expect(onTime.pix).toMatchObject({ kind: "cobv", fine_rate: "0.02", interest_rate_monthly: "0.01" });

    const overdue = await charge([late.id]);
    expect(overdue.breakdown[0]!.fine).toBeGreaterThan(0);
    expect(overdue.pix).toMatchObject({ kind: "cobv", fine_rate: "0", interest_rate_monthly: "0" });
    // Mixed: the late installment's fine is in the amount, so none is added on the whole.
    expect((await charge([late.id, future.id])).pix).toMatchObject({ fine_rate: "0", interest_rate_monthly: "0" });
  });

  it("0 on a settlement's charge: a payoff paid a day late must not get a fine on installments not yet due", async () => {
    const { t, id } = await contract();
    const made = await call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json: { contract_id: id, type: "full", payment_method: "pix" } });
    expect(made.status).toBe(201);
    const charge = await db().charge.findUniqueOrThrow({ where: { id: made.body.charge_id } });
    expect(charge.pix).toMatchObject({ kind: "cobv", fine_rate: "0", interest_rate_monthly: "0" });
  });

  it("0 for the rest of an installment already late on the due date, even when its fine was paid before (its amount has no late charges left)", async () => {
    const t = await creditTenant();
    const today = todayInBrazil();
    const { id, first } = await contractDue(t, addDays(today, -10));
    // R$ 1.000,00 due 10 days ago: 2% fine 2000, late interest 1% a month for 10 days 333.
    await db().installment.update({ where: { id: first.id }, data: { principal: 90_000n, interest: 10_000n, amount: 100_000n } });
    const boleto = await newCharge(t, { contract_id: id, method: "boleto", installment_ids: [first.id] });
    expect(boleto.amount).toBe(102_333);
    const part = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${boleto.id}/pay`, headers: t.headers, params: { id: boleto.id }, json: { amount: 60_000 } });
    expect(part.body.payment.allocations).toEqual([{ installment_id: first.id, number: 1, fine: 2000, late_interest: 333, interest: 10_000, principal: 47_667, total: 60_000, settles: false }]);

    // The rest, due today: no fine or late interest left in it — but the installment is late, and the PSP must not add
    // the fine again after the due date (it would ask 43194 the next business day for 42347 owed).
    const rest = await newCharge(t, { contract_id: id, method: "pix", installment_ids: [first.id] });
    expect(rest).toMatchObject({
      amount: 42_333,
      due_date: today,
      breakdown: [{ installment_id: first.id, number: 1, due_date: isoDate(first.dueDate), fine: 0, late_interest: 0, interest: 0, principal: 42_333, total: 42_333 }],
      pix: { kind: "cobv", fine_rate: "0", interest_rate_monthly: "0", expires_at: null },
    });
    const row = await db().installment.findUniqueOrThrow({ where: { id: first.id } });
    const later = firstLateDay(today);
    const owed = amountsDue(allocatable(row), LATE, later).total;
    const withRates = lateCharges({ amount: 42_333, dueDate: today, asOf: later, ...LATE }).total;
    expect(withRates).toBeGreaterThan(owed); // what the contract's rates would have made the PSP ask
    expect(42_333).toBeLessThanOrEqual(owed); // what it asks with "0"
  });

  it("0 when an installment falls due after the charge's due date: the PSP would fine it before it is late", async () => {
    const t = await creditTenant();
    const today = todayInBrazil();
    const { id, first } = await contractDue(t, addDays(today, 40));
    const early = await newCharge(t, { contract_id: id, method: "pix", installment_ids: [first.id], due_date: addDays(today, 5) });
    expect(early).toMatchObject({ due_date: addDays(today, 5), amount: Number(first.amount), pix: { kind: "cobv", fine_rate: "0", interest_rate_monthly: "0" } });
    // Due on the installment's own due date (the default), the rates are the contract's.
    const onTime = await newCharge(t, { contract_id: id, method: "pix", installment_ids: [first.id] });
    expect(onTime).toMatchObject({ due_date: isoDate(first.dueDate), pix: { fine_rate: "0.02", interest_rate_monthly: "0.01" } });
  });

  it("an installment due on a Saturday, a charge due the Monday after: the rates; late the same day, same fine, and the PSP never asks more", async () => {
    const t = await creditTenant();
    const today = todayInBrazil();
    let saturday = addDays(today, 35);
    while (weekday(saturday) !== 6) saturday = addDays(saturday, 1);
    const monday = addDays(saturday, 2);
    const { id, first } = await contractDue(t, saturday);
    expect(isoDate(first.dueDate)).toBe(saturday);
    expect(isLate(saturday, monday)).toBe(false); // the grace of Lei 7.089/1983: paid on Monday it is on time
    const charge = await newCharge(t, { contract_id: id, method: "pix", installment_ids: [first.id], due_date: monday });
    const face = Number(first.amount);
    expect(charge).toMatchObject({ due_date: monday, amount: face, breakdown: [{ fine: 0, late_interest: 0, total: face }], pix: { fine_rate: "0.02", interest_rate_monthly: "0.01" } });

    const row = await db().installment.findUniqueOrThrow({ where: { id: first.id } });
    const platform = (day: string) => amountsDue(allocatable(row), LATE, day);
    const psp = (day: string) => lateCharges({ amount: charge.amount, dueDate: monday, asOf: day, fineRate: charge.pix.fine_rate, monthlyLateInterestRate: charge.pix.interest_rate_monthly });
    expect([platform(monday).total, psp(monday).total]).toEqual([face, face]);
    // The day after: both fine it (the same fine); the PSP counts interest from Monday, the platform from Saturday.
    const tuesday = firstLateDay(monday);
    expect(isLate(saturday, tuesday)).toBe(true);
    expect(psp(tuesday).fine).toBe(platform(tuesday).fine);
    expect(psp(tuesday).late_interest).toBeLessThan(platform(tuesday).late_interest);
    expect(platform(tuesday).late_interest).toBe(lateCharges({ amount: face, dueDate: saturday, asOf: tuesday, fineRate: "0", monthlyLateInterestRate: "0.01" }).late_interest);
  });
});

const LATE = { fineRate: "0.02", monthlyLateInterestRate: "0.01" }; // inss_payroll's late rules (lib/products.ts)

/** A contract whose first installment is due on `firstDue` (kept on a weekend or holiday). */
async function contractDue(t: CreditTenant, firstDue: string) {
  const { proposal } = await signedProposal(t, { disbursement_date: addMonths(firstDue, -1) < todayInBrazil() ? addMonths(firstDue, -1) : todayInBrazil(), first_due_date: firstDue, due_date_rule: "keep" });
  const id = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body.id as string;
  const first = (await db().installment.findFirstOrThrow({ where: { contractId: id, number: 1 } }))!;
  return { id, first };
}

async function newCharge(t: CreditTenant, json: Record<string, unknown>) {
  const res = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The first day after `due` on which something due on `due` is late. */
function firstLateDay(due: string): string {
  let day = addDays(due, 1);
  while (!isLate(due, day)) day = addDays(day, 1);
  return day;
}
