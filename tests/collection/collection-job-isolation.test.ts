import { describe, expect, it, vi } from "vitest";
import { runCollectionJob } from "@/lib/collection/collection-job";
import { db } from "@/lib/db/client";
import { creditTenant } from "../credit/flow-helpers";
import { contractsOf } from "../settlements/helpers";

// One contract whose credit cannot be applied (a bug, a lock wait past the transaction's limit) does not stop the
// collection job: the other contracts get their credit, and charges and installments are still marked.

const failing = vi.hoisted(() => ({ contractId: "" }));
vi.mock("@/lib/collection/apply-credit", async (original) => {
  const real = await original<typeof import("@/lib/collection/apply-credit")>();
  return {
    ...real,
    applyCreditIn: async (...args: Parameters<typeof real.applyCreditIn>) => {
      if (args[3] === failing.contractId) throw new Error("a bug in one contract");
      return real.applyCreditIn(...args);
    },
  };
});

describe("collection job", () => {
  it("goes on past a contract whose credit fails to apply", async () => {
    const t = await creditTenant();
    const [broken, fine] = await contractsOf(t, 2);
    failing.contractId = broken!;
    await db().contract.updateMany({ where: { id: { in: [broken!, fine!] } }, data: { creditBalance: 5_000n } });
    const result = await runCollectionJob();
    expect(result.creditsApplied).toBeGreaterThanOrEqual(1);
    expect(await db().payment.count({ where: { contractId: fine, source: "contract_credit" } })).toBe(1);
    expect(await db().payment.count({ where: { contractId: broken, source: "contract_credit" } })).toBe(0);
    expect((await db().contract.findUniqueOrThrow({ where: { id: broken } })).creditBalance).toBe(5_000n);
    // The marks after the credits still ran: both contracts' late installments were announced.
    const announced = await db().outboxEvent.findMany({ where: { tenantId: t.tenant.id, type: "installment.overdue" } });
    const contractsAnnounced = new Set(announced.map((e) => (e.payload as { contract_id: string }).contract_id));
    expect([...contractsAnnounced].sort()).toEqual([broken, fine].sort());
  });
});
