import { describe, expect, it } from "vitest";
import { POST as submit } from "@/app/v1/proposals/[id]/submit/route";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { dashboard, ratio } from "@/lib/panel/dashboard";
import { creditTenant, newProposal } from "../credit/flow-helpers";
import { call } from "../helpers/http";
import { contractsOf } from "../settlements/helpers";

// The Overview's figures (issue 12) from the real tables: one tenant and environment only, São Paulo months.

describe("ratio", () => {
  it("is an exact 4-place decimal rounded half up", () => {
    expect([ratio(0, 0), ratio(1, 3), ratio(2, 3), ratio(1, 8), ratio(1, 20000), ratio(1, 20001), ratio(5, 5)]).toEqual([
      "0.0000", "0.3333", "0.6667", "0.1250", "0.0001", "0.0000", "1.0000",
    ]);
  });
});

describe("the dashboard", () => {
  it("counts the portfolio, overdue, monthly disbursed and collected in São Paulo time, and nothing of other tenants or environments", async () => {
    const t = await creditTenant();
    const other = await creditTenant();
    const [a, b] = await contractsOf(t, 2); // disbursed 2026-03-02, first installment due 2026-04-02
    await contractsOf(other, 1);
    const waiting = await newProposal(t);
    await call(submit, { base: t.base, path: `/v1/proposals/${waiting.proposal.id}/submit`, headers: t.headers, params: { id: waiting.proposal.id } });
    const contracts = await db().contract.findMany({ where: { id: { in: [a!, b!] } } });
    const payment = (contractId: string, amount: number, paidAt: string) => ({
      id: newId("payment"), tenantId: t.tenant.id, environment: "sandbox" as const, contractId, amount: BigInt(amount), source: "pix", paidAt: new Date(paidAt),
    });
    // 23:00 on 30 April in São Paulo is already May in UTC: it counts for April.
    await db().payment.createMany({ data: [payment(a!, 10_000, "2026-05-01T02:00:00Z"), payment(a!, 2_500, "2026-05-01T03:30:00Z"), payment(b!, 99, "2026-05-10T12:00:00Z")] });

    const now = new Date("2026-05-10T15:00:00Z");
    const figures = await dashboard({ tenantId: t.tenant.id, environment: "sandbox" }, now);
    const principal = contracts.reduce((sum, c) => sum + Number(c.principal), 0);
    const outstanding = contracts.reduce((sum, c) => sum + Number(c.outstandingBalance), 0);
    const overdue = await db().installment.findMany({ where: { contractId: { in: [a!, b!] }, dueDate: { lt: new Date("2026-05-10") } } });
    expect(overdue).toHaveLength(4); // two per contract, due 04-02 and 05-02
    const months = ["2025-06", "2025-07", "2025-08", "2025-09", "2025-10", "2025-11", "2025-12", "2026-01", "2026-02", "2026-03", "2026-04", "2026-05"];
    expect(figures).toEqual({
      environment: "sandbox",
      as_of: "2026-05-10",
      active_contracts: 2,
      outstanding_balance: outstanding,
      overdue_contracts: 2,
      overdue_amount: overdue.reduce((sum, i) => sum + Number(i.amount), 0),
      overdue_rate: "1.0000",
      disbursed_this_month: 0,
      collected_this_month: 2_599,
      proposals_waiting_review: 1,
      months: months.map((month) => ({
        month,
        disbursed: month === "2026-03" ? principal : 0,
        contracts: month === "2026-03" ? 2 : 0,
        collected: month === "2026-04" ? 10_000 : month === "2026-05" ? 2_599 : 0,
      })),
    });

    // A canceled contract is neither active nor disbursed; production has nothing.
    await db().contract.update({ where: { id: b! }, data: { status: "canceled" } });
    const after = await dashboard({ tenantId: t.tenant.id, environment: "sandbox" }, now);
    expect(after).toMatchObject({ active_contracts: 1, overdue_contracts: 1, overdue_rate: "1.0000" });
    expect(after.months.find((m) => m.month === "2026-03")).toEqual({ month: "2026-03", disbursed: Number(contracts.find((c) => c.id === a)!.principal), contracts: 1, collected: 0 });
    const production = await dashboard({ tenantId: t.tenant.id, environment: "production" }, now);
    expect(production).toMatchObject({ active_contracts: 0, outstanding_balance: 0, overdue_rate: "0.0000", collected_this_month: 0, proposals_waiting_review: 0 });
    expect(production.months.every((m) => m.disbursed === 0 && m.collected === 0)).toBe(true);
  });
});
