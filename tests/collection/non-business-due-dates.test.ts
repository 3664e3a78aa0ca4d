import { describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { GET as getInstallment } from "@/app/v1/installments/[id]/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { allocatable, amountsDue } from "@/lib/collection/allocation";
import { runCollectionJob } from "@/lib/collection/collection-job";
import { db } from "@/lib/db/client";
import { call } from "../helpers/http";
import { creditTenant, signedProposal, type CreditTenant } from "../credit/flow-helpers";

// Due dates on weekends and holidays (Lei 7.089/1983): what falls due on a Saturday may be paid on Monday without a
// fine or late interest — no `installment.overdue`, no `charge.overdue` before Tuesday, and a boleto due on the Saturday
// paid on the Monday pays exactly what it asked for. Paid on Tuesday, the delay counts from the Saturday.
// 2026-11-21 is a Saturday, 2026-11-23 the Monday after.

const LATE = { fineRate: "0.02", monthlyLateInterestRate: "0.01" }; // inss_payroll's late rules (lib/products.ts)
const at = (day: string) => new Date(`${day}T15:00:00-03:00`);

async function contractFirstDue(t: CreditTenant, firstDue: string) {
  const { proposal } = await signedProposal(t, { disbursement_date: "2026-10-21", first_due_date: firstDue, due_date_rule: "keep" });
  const contract = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body as { id: string };
  const installments = await db().installment.findMany({ where: { contractId: contract.id }, orderBy: { number: "asc" }, include: { contract: { select: { terms: true } } } });
  return { contract, first: installments[0]! };
}

/** A boleto for `installmentId`, as if issued before `dueDate` for `amount` (charges are issued today or later). */
async function boletoDue(t: CreditTenant, contractId: string, installmentId: string, dueDate: string, amount: number) {
  const made = (await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contractId, method: "boleto", installment_ids: [installmentId] } })).body as { id: string };
  await db().charge.update({ where: { id: made.id }, data: { dueDate: new Date(`${dueDate}T00:00:00Z`), amount: BigInt(amount), createdAt: at("2026-11-16") } });
  return made.id;
}

describe("due dates on weekends and holidays", () => {
  it("an installment due on Saturday is not overdue on Monday, and is 3 days late on Tuesday", async () => {
    const t = await creditTenant();
    const { first } = await contractFirstDue(t, "2026-11-21");
    expect(first.dueDate.toISOString().slice(0, 10)).toBe("2026-11-21");
    const on = async (asOf: string) => (await call(getInstallment, { base: t.base, path: `/v1/installments/${first.id}?as_of=${asOf}`, headers: t.headers, params: { id: first.id } })).body;
    const face = Number(first.amount);
    for (const day of ["2026-11-21", "2026-11-22", "2026-11-23"]) {
      expect(await on(day)).toMatchObject({ status: "open", amount_due: { as_of: day, days_late: 0, outstanding: face, fine: 0, late_interest: 0, total: face } });
    }
    const fine = Math.round(face * 0.02);
    const lateInterest = Math.round((face * 0.01 * 3) / 30);
    expect(await on("2026-11-24")).toMatchObject({ status: "overdue", amount_due: { days_late: 3, fine, late_interest: lateInterest, total: face + fine + lateInterest } });

    const announced = () => db().outboxEvent.count({ where: { tenantId: t.tenant.id, type: "installment.overdue" } });
    await runCollectionJob(at("2026-11-22"));
    await runCollectionJob(at("2026-11-23"));
    expect(await announced()).toBe(0);
    await runCollectionJob(at("2026-11-24"));
    expect(await announced()).toBe(1);
  });

  it("a boleto due on Saturday and paid on Monday pays its installment in full; paid on Tuesday it does not", async () => {
    const t = await creditTenant();
    for (const [paidOn, expected] of [["2026-11-23", "paid"], ["2026-11-24", "partially_paid"]] as const) {
      const { contract, first } = await contractFirstDue(t, "2026-11-21");
      const face = Number(first.amount);
      const charge = await boletoDue(t, contract.id, first.id, "2026-11-21", face);
      const paid = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${charge}/pay`, headers: t.headers, params: { id: charge }, json: { amount: face, paid_on: paidOn } });
      expect(paid.status).toBe(200);
      expect(paid.body.charge.status).toBe(expected);
      const row = await db().installment.findUniqueOrThrow({ where: { id: first.id } });
      expect(row.status).toBe(expected);
      if (expected === "paid") expect(paid.body.payment.allocations).toEqual([{ installment_id: first.id, number: 1, fine: 0, late_interest: 0, interest: Number(first.interest), principal: Number(first.principal), total: face, settles: true }]);
      else expect(paid.body.payment.allocations[0]).toMatchObject({ fine: Math.round(face * 0.02), settles: false });
    }
  });

  it("a second copy due on Saturday for a late installment, paid on Monday, pays what it asked for: no late interest for the weekend", async () => {
    const t = await creditTenant();
    const { contract, first } = await contractFirstDue(t, "2026-11-03");
    const asked = amountsDue(allocatable(first), LATE, "2026-11-21"); // 18 days late on the Saturday
    const charge = await boletoDue(t, contract.id, first.id, "2026-11-21", asked.total);
    const paid = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${charge}/pay`, headers: t.headers, params: { id: charge }, json: { amount: asked.total, paid_on: "2026-11-23" } });
    expect(paid.body.charge.status).toBe("paid");
    expect(paid.body.payment).toMatchObject({ amount: asked.total, credit: 0, allocations: [{ installment_id: first.id, ...asked, settles: true }] });
    expect((await db().installment.findUniqueOrThrow({ where: { id: first.id } })).status).toBe("paid");
  });
});
