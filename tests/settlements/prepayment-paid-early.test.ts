import { describe, expect, it } from "vitest";
import { GET as getContract } from "@/app/v1/contracts/[id]/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { GET as getSettlement } from "@/app/v1/settlements/[id]/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { addDays, addMonths, prepaymentSchedule, type AmortizationSystem } from "@/lib/finance";
import { centavos, isoDate } from "@/lib/serialize";
import { call } from "../helpers/http";
import { creditTenant, signedProposal } from "../credit/flow-helpers";

// A partial settlement (prepayment) whose money arrives before its date is priced on the day it arrived, as a full one
// is (CDC art. 52 §2): the balance left is the installments' value that day less the prepayment. Priced for the later
// date, the borrower kept owing the interest of the days between on money already paid.

describe("a prepayment paid before its date", () => {
  it("reschedules from the day the money arrived: a lower balance than the plan made for its date", async () => {
    const t = await creditTenant();
    const today = todayInBrazil();
    const { proposal } = await signedProposal(t, { disbursement_date: today, first_due_date: addMonths(today, 1) });
    const contractId = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body.id as string;
    const contract = await db().contract.findUniqueOrThrow({ where: { id: contractId } });
    const open = await db().installment.findMany({ where: { contractId }, orderBy: { number: "asc" } });

    const date = addDays(today, 20);
    const made = await call(createSettlement, {
      base: t.base,
      path: "/v1/settlements",
      headers: t.headers,
      json: { contract_id: contractId, type: "partial", amount: 300_000, reduce: "installment_amount", payment_method: "boleto", date },
    });
    expect(made.status).toBe(201);
    const planned = made.body.reschedule as { balance_after: number };

    // Paid today, 20 days early.
    const paid = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${made.body.charge_id}/pay`, headers: t.headers, params: { id: made.body.charge_id }, json: {} });
    expect(paid.status).toBe(200);
    expect(paid.body.payment).toMatchObject({ amount: 300_000, credit: 0, settlement_id: made.body.id });

    const onPayDay = prepaymentSchedule({
      system: (contract.terms as { amortization: AmortizationSystem }).amortization,
      monthlyRate: contract.monthlyRate,
      date: today,
      remaining: open.map((i) => ({ number: i.number, due_date: isoDate(i.dueDate), nominal_due_date: isoDate(i.nominalDueDate), payment: centavos(i.amount), amortization: centavos(i.principal) })),
      amount: 300_000,
      reduce: "installment_amount",
    });
    expect(onPayDay.balance_after).toBeLessThan(planned.balance_after);
    const done = (await call(getSettlement, { base: t.base, path: `/v1/settlements/${made.body.id}`, headers: t.headers, params: { id: made.body.id } })).body;
    expect(done).toMatchObject({ status: "completed", date });
    expect(done.reschedule).toEqual({
      balance_before: onPayDay.balance_before,
      balance_after: onPayDay.balance_after,
      schedule: onPayDay.schedule.map((row) => ({ installment_id: open.find((i) => i.number === row.number)!.id, ...row })),
      dropped_installment_ids: [],
    });
    const rows = await db().installment.findMany({ where: { contractId }, orderBy: { number: "asc" } });
    expect(rows.map((r) => [r.number, centavos(r.amount), centavos(r.principal), centavos(r.interest), isoDate(r.nominalDueDate)])).toEqual(
      onPayDay.schedule.map((row) => [row.number, row.payment, row.amortization, row.interest, row.nominal_due_date]),
    );
    const after = (await call(getContract, { base: t.base, path: `/v1/contracts/${contractId}`, headers: t.headers, params: { id: contractId } })).body;
    expect(after).toMatchObject({ status: "active", amount_paid: 300_000, credit_balance: 0, outstanding_balance: onPayDay.schedule.reduce((sum, row) => sum + row.payment, 0) });
  });
});

describe("a prepayment paid so early that it would pay the whole balance that day", () => {
  it("cannot be completed: the settlement is canceled with the reason, the installments are left as they were and the money is the borrower's credit", async () => {
    const t = await creditTenant();
    const today = todayInBrazil();
    const { proposal } = await signedProposal(t, { disbursement_date: today, first_due_date: addMonths(today, 1) });
    const contractId = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body.id as string;
    const before = await db().installment.findMany({ where: { contractId }, orderBy: { number: "asc" } });

    // For a date 25 days ahead, all but R$ 50,00 of the balance then: accepted (one installment left, reduced term).
    const date = addDays(today, 25);
    const balanceThen = prepaymentSchedule({
      system: "price",
      monthlyRate: (await db().contract.findUniqueOrThrow({ where: { id: contractId } })).monthlyRate,
      date,
      remaining: before.map((i) => ({ number: i.number, due_date: isoDate(i.dueDate), nominal_due_date: isoDate(i.nominalDueDate), payment: centavos(i.amount), amortization: centavos(i.principal) })),
      amount: 1,
      reduce: "term",
    }).balance_before;
    const amount = balanceThen - 50_00;
    const made = await call(createSettlement, {
      base: t.base,
      path: "/v1/settlements",
      headers: t.headers,
      json: { contract_id: contractId, type: "partial", amount, reduce: "term", payment_method: "boleto", date },
    });
    expect(made.status, made.text).toBe(201);

    // Paid today: 25 days' less interest makes the balance today smaller than the prepayment.
    const chargeId = made.body.charge_id as string;
    const paid = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${chargeId}/pay`, headers: t.headers, params: { id: chargeId }, json: {} });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.charge).toMatchObject({ status: "paid", amount, amount_paid: amount, settlement_id: made.body.id });
    // Nothing of it is due yet: it is all the contract's credit (a payoff later is net of it).
    expect(paid.body.payment).toMatchObject({ amount, allocations: [], credit: amount, settlement_id: null });
    const settlement = (await call(getSettlement, { base: t.base, path: `/v1/settlements/${made.body.id}`, headers: t.headers, params: { id: made.body.id } })).body;
    expect(settlement).toMatchObject({
      status: "canceled",
      payment_id: null,
      completed_at: null,
      cancel_reason:
        `its charge ${chargeId} was paid but it could not be completed: Priced on ${today}, the day it was paid (before its date), ` +
        "the prepayment would pay the whole balance or leave too little to reschedule: settle in full instead",
    });
    const after = await db().installment.findMany({ where: { contractId }, orderBy: { number: "asc" } });
    expect(after.map((i) => [i.number, i.status, i.amount, i.principal, i.interest, i.paidAmount])).toEqual(before.map((i) => [i.number, i.status, i.amount, i.principal, i.interest, i.paidAmount]));
    const contract = (await call(getContract, { base: t.base, path: `/v1/contracts/${contractId}`, headers: t.headers, params: { id: contractId } })).body;
    expect(contract).toMatchObject({ status: "active", amount_paid: 0, credit_balance: amount, outstanding_balance: before.reduce((sum, i) => sum + centavos(i.amount), 0) });
    const events = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: { startsWith: "settlement." } }, orderBy: { createdAt: "asc" }, select: { type: true } });
    expect(events.map((e) => e.type)).toEqual(["settlement.created", "settlement.canceled"]);
  });
});
