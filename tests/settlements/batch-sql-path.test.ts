import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POST as batch } from "@/app/v1/settlements/batch/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { db } from "@/lib/db/client";
import { call } from "../helpers/http";
import { creditTenant } from "../credit/flow-helpers";
import { contractsOf } from "./helpers";

// The batch settles "full, funds received" items in plain SQL (lib/settlements/settle-received-sql.ts); every
// other settlement goes through createSettlementIn + completeSettlementIn. Two identical contracts, one settled
// each way: the database must end the same — settlement, installments, contract, payment, audit and events.

/** Ids (and the contract number) named by role, so the two contracts' rows compare. */
const strip = (value: unknown, ids: Record<string, string | null>): unknown =>
  JSON.parse(Object.entries(ids).reduce((text, [name, id]) => (id ? text.replaceAll(id, `<${name}>`) : text), JSON.stringify(value)));

async function state(contractId: string) {
  const settlement = (await db().settlement.findFirstOrThrow({ where: { contractId } }));
  const payment = await db().payment.findFirstOrThrow({ where: { contractId } });
  const installments = await db().installment.findMany({ where: { contractId }, orderBy: { number: "asc" } });
  const contract = await db().contract.findUniqueOrThrow({ where: { id: contractId } });
  const targets = [contractId, settlement.id];
  const audits = await db().auditLog.findMany({ where: { targetId: { in: targets } }, orderBy: { action: "asc" } });
  const events = await db().outboxEvent.findMany({
    where: { type: { in: ["contract.closed", "installment.paid", "payment.received", "settlement.completed", "settlement.created"] }, OR: [{ payload: { path: ["contract_id"], equals: contractId } }, { payload: { path: ["id"], equals: contractId } }] },
    orderBy: [{ type: "asc" }, { id: "asc" }],
  });
  const ids = {
    contract: contractId,
    settlement: settlement.id,
    payment: payment.id,
    batch: settlement.batchId,
    number: contract.number,
    proposal: contract.proposalId,
    customer: contract.customerId,
    ...Object.fromEntries(installments.map((i) => [`installment${i.number}`, i.id])),
  };
  const timeless = <T extends object>(row: T) => Object.fromEntries(Object.entries(row).filter(([k]) => !/(_at|At|^created|^updated|^id$|^batchId$)$/.test(k) && !["paid_at", "created_at", "updated_at", "completed_at"].includes(k)));
  return strip(
    {
      settlement: { ...timeless(settlement), quote: settlement.quote, amount: String(settlement.amount) },
      payment: { amount: String(payment.amount), source: payment.source, credit: String(payment.credit), allocations: payment.allocations },
      installments: installments.map((i) => ({ number: i.number, status: i.status, paid: String(i.paidAmount), fine: String(i.finePaid), late: String(i.lateInterestPaid), paidAt: i.paidAt !== null })),
      contract: { status: contract.status, amountPaid: String(contract.amountPaid), outstanding: String(contract.outstandingBalance), credit: String(contract.creditBalance) },
      audits: audits.map((a) => ({ action: a.action, target: a.targetType, metadata: a.metadata, actor: a.actorType })),
      events: events.map((e) => ({ type: e.type, payload: timelessDeep(e.payload) })),
    },
    ids,
  );
}

function timelessDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(timelessDeep);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !k.endsWith("_at") && k !== "id" && k !== "batch_id").map(([k, v]) => [k, timelessDeep(v)]));
  }
  return value;
}

describe("settlement batch: the plain-SQL path", () => {
  it("leaves the same database state as a single settlement through the services", async () => {
    const t = await creditTenant();
    const [viaServices, viaBatch] = await contractsOf(t, 2);
    const single = await call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json: { contract_id: viaServices, type: "full", payment_method: "received" } });
    expect(single.status).toBe(201);
    const batched = await call(batch, { base: t.base, path: "/v1/settlements/batch", headers: { ...t.headers, "x-request-id": randomUUID() }, json: { items: [{ contract_id: viaBatch, type: "full", payment_method: "received" }] } });
    expect(batched.body).toMatchObject({ created: 1, failed: 0 });
    const a = await state(viaServices!);
    const b = await state(viaBatch!);
    expect(b).toEqual(a);
    const types = (a as { events: { type: string }[] }).events.map((e) => e.type);
    expect(types).toEqual(["contract.closed", ...types.filter((x) => x === "installment.paid"), "payment.received", "settlement.completed"]);
    expect(types.filter((x) => x === "installment.paid").length).toBeGreaterThan(0); // one per installment paid
  });

  it("answers the same problems as the services for a contract that is not settleable", async () => {
    const t = await creditTenant();
    const [id] = await contractsOf(t, 1);
    const items = [
      { contract_id: id, type: "full", payment_method: "received", date: "2020-01-01" },
      { contract_id: id, type: "full", payment_method: "received" },
      { contract_id: id, type: "full", payment_method: "received" },
      { contract_id: "ctr_00000000000000000000000000", type: "full", payment_method: "received" },
    ];
    const res = await call(batch, { base: t.base, path: "/v1/settlements/batch", headers: { ...t.headers, "x-request-id": randomUUID() }, json: { items } });
    expect(res.body.results.map((r: { status: string; error: { code: string; errors?: unknown } | null }) => [r.status, r.error?.code ?? null])).toEqual([
      ["failed", "validation_error"],
      ["created", null],
      ["failed", "contract_not_active"],
      ["failed", "not_found"],
    ]);
    expect(res.body.results[0].error.errors).toEqual([{ param: "items.0.date", in: "body", message: "Must be today or later" }]);
  });
});
