import { afterEach, describe, expect, it, vi } from "vitest";
import type { Prisma } from "@prisma/client";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { POST as pay } from "@/app/v1/sandbox/charges/[id]/pay/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { db } from "@/lib/db/client";
import { computeQuote } from "@/lib/settlements/payoff-quote";
import { isoDate } from "@/lib/serialize";
import { call } from "../helpers/http";
import { creditTenant, signedProposal } from "../credit/flow-helpers";

// A full settlement made before installments carried nominal due dates was quoted discounting each installment to its
// actual (moved) due date, and its charge asks for that amount. Paid after the deploy, its completion must not
// recompute it on nominal dates — under `following` that is more than was quoted, so the borrower's payment of the
// quoted payoff canceled the settlement and became mere credit.
describe("a full settlement quoted before nominal due dates, paid after", () => {
  afterEach(() => vi.useRealTimers());

  it("completes on the payoff it was quoted", async () => {
    const t = await creditTenant();
    // Disbursed 2026-01-15: 2026-02-15 is a Sunday before Carnival, due (following) Wednesday the 18th.
    const { proposal } = await signedProposal(t, { disbursement_date: "2026-01-15" });
    const issued = await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } });
    expect(issued.status, issued.text).toBe(201);
    const contractId = issued.body.id as string;
    const installments = await db().installment.findMany({ where: { contractId }, orderBy: { number: "asc" } });
    expect(installments.some((i) => isoDate(i.dueDate) !== isoDate(i.nominalDueDate))).toBe(true);

    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-01-20T15:00:00Z") });
    const made = await call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json: { contract_id: contractId, type: "full", payment_method: "boleto" } });
    expect(made.status, made.text).toBe(201);

    // As it was stored before the change: lines without nominal_due_date, discounted to the due dates.
    const contract = await db().contract.findUniqueOrThrow({ where: { id: contractId } });
    const legacy = computeQuote(contract, installments.map((i) => ({ ...i, nominalDueDate: i.dueDate })), "2026-01-20");
    const current = computeQuote(contract, installments, "2026-01-20");
    // The rule change alone raised the payoff: R$ 10.233,83 quoted, R$ 10.237,53 on nominal dates.
    expect([legacy.amount, current.amount]).toEqual([1_023_383, 1_023_753]);
    const stored = { ...legacy, installments: legacy.installments.map((line) => Object.fromEntries(Object.entries(line).filter(([key]) => key !== "nominal_due_date"))) };
    await db().settlement.update({ where: { id: made.body.id }, data: { amount: BigInt(legacy.amount), quote: stored as unknown as Prisma.InputJsonObject } });
    await db().charge.update({ where: { id: made.body.charge_id }, data: { amount: BigInt(legacy.amount) } });

    const paid = await call(pay, { base: t.base, path: `/v1/sandbox/charges/${made.body.charge_id}/pay`, headers: t.headers, params: { id: made.body.charge_id }, json: { amount: legacy.amount } });
    expect(paid.status, paid.text).toBe(200);
    const settlement = await db().settlement.findUniqueOrThrow({ where: { id: made.body.id } });
    expect({ status: settlement.status, reason: settlement.cancelReason }).toEqual({ status: "completed", reason: null });
    const after = await db().contract.findUniqueOrThrow({ where: { id: contractId } });
    expect({ status: after.status, credit: after.creditBalance }).toEqual({ status: "settled", credit: 0n });
  });
});
