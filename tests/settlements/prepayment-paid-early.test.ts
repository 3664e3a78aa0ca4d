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
      remaining: open.map((i) => ({ number: i.number, due_date: isoDate(i.dueDate), payment: centavos(i.amount), amortization: centavos(i.principal) })),
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
    expect(rows.map((r) => [r.number, centavos(r.amount), centavos(r.principal), centavos(r.interest)])).toEqual(onPayDay.schedule.map((row) => [row.number, row.payment, row.amortization, row.interest]));
    const after = (await call(getContract, { base: t.base, path: `/v1/contracts/${contractId}`, headers: t.headers, params: { id: contractId } })).body;
    expect(after).toMatchObject({ status: "active", amount_paid: 300_000, credit_balance: 0, outstanding_balance: onPayDay.schedule.reduce((sum, row) => sum + row.payment, 0) });
  });
});
