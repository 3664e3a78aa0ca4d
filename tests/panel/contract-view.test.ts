import { describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as sandboxPay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { db } from "@/lib/db/client";
import { contractFile, contractList, ContractListQuery } from "@/lib/panel/contract-view";
import { creditTenant } from "../credit/flow-helpers";
import { call } from "../helpers/http";
import { contractsOf } from "../settlements/helpers";

// The panel's contracts (issue 12) on the real services: search by number, document and name, isolation, and a
// contract's file gathering its installments, charges, payments, payoff quote and event timeline.

describe("the panel's contracts", () => {
  it("lists and searches contracts of the tenant's environment only", async () => {
    const t = await creditTenant();
    const other = await creditTenant();
    const [a, b] = await contractsOf(t, 2);
    await contractsOf(other, 1);
    const scope = { tenantId: t.tenant.id, environment: "sandbox" as const };
    const ids = async (q: Record<string, unknown>) => (await contractList(scope, ContractListQuery.parse(q))).data.map((c) => c.id);
    expect((await ids({})).sort()).toEqual([a, b].sort());
    const row = await db().contract.findUniqueOrThrow({ where: { id: a! } });
    expect(await ids({ q: row.number })).toEqual([a]);
    expect(await ids({ q: a })).toEqual([a]);
    const customer = await db().customer.findUniqueOrThrow({ where: { id: row.customerId } });
    expect(await ids({ q: customer.document })).toEqual([a]);
    expect((await ids({ q: "maria" })).length).toBe(2);
    expect(await ids({ status: "settled" })).toEqual([]);
    expect((await contractList({ tenantId: t.tenant.id, environment: "production" }, ContractListQuery.parse({}))).data).toEqual([]);
    await expect(contractFile({ tenantId: other.tenant.id, environment: "sandbox" }, a!)).rejects.toMatchObject({ code: "not_found" });
    await expect(contractFile(scope, "ctr_bad")).rejects.toMatchObject({ code: "not_found" });
  });

  it("a contract's file: installments as of today, charges, payments, payoff quote and timeline", async () => {
    const t = await creditTenant();
    const [id] = await contractsOf(t, 1);
    const charge = await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: id, method: "pix" } });
    expect(charge.status).toBe(201);
    const paid = await call(sandboxPay, { base: t.base, path: `/v1/sandbox/charges/${charge.body.id}/pay`, headers: t.headers, params: { id: charge.body.id }, json: {} });
    expect(paid.status).toBe(200);
    const file = await contractFile({ tenantId: t.tenant.id, environment: "sandbox" }, id!);
    expect(file.contract.id).toBe(id);
    expect(file.installments).toHaveLength(12);
    expect(file.installments[0]!.status).toBe("paid");
    expect(file.charges.map((c) => [c.id, c.status])).toEqual([[charge.body.id, "paid"]]);
    expect(file.payments.map((p) => p.charge_id)).toEqual([charge.body.id]);
    expect(file.refunds).toEqual([]); // the panel shows refunds of the credit (e2e/contracts.spec.ts)
    expect(file.payoff_quote).toMatchObject({ object: "payoff_quote", contract_id: id });
    expect(file.timeline.map((e) => e.type)).toEqual(expect.arrayContaining(["contract.issued", "charge.created", "charge.paid", "payment.received", "installment.paid"]));
    const order = file.timeline.map((e) => e.type);
    expect(order.indexOf("contract.issued")).toBeLessThan(order.indexOf("charge.created")); // oldest first
    // Written off, it is still collected: today's payoff quote (a recovery) is still shown; settled, it is not.
    await db().contract.update({ where: { id: id! }, data: { status: "written_off" } });
    expect((await contractFile({ tenantId: t.tenant.id, environment: "sandbox" }, id!)).payoff_quote).toMatchObject({ object: "payoff_quote", contract_id: id, amount: file.payoff_quote && "amount" in file.payoff_quote ? file.payoff_quote.amount : -1 });
    await db().contract.update({ where: { id: id! }, data: { status: "settled" } });
    expect((await contractFile({ tenantId: t.tenant.id, environment: "sandbox" }, id!)).payoff_quote).toBeNull();
  });
});
