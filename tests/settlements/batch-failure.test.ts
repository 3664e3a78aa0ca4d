import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { POST as batch } from "@/app/v1/settlements/batch/route";
import { db } from "@/lib/db/client";
import { call } from "../helpers/http";
import { creditTenant } from "../credit/flow-helpers";
import { contractsOf } from "./helpers";

// A batch request that fails for a reason of its own (not an item's refusal: a dropped database connection, a bug)
// gives its lease back: the client's retry with the same X-Request-Id continues from the failed item at once, instead
// of 409 `idempotency_in_progress` until the lease lapses; the items done before are not done twice.

const failures = vi.hoisted(() => ({ left: 0 }));
vi.mock("@/lib/settlements/settle-received-sql", async (original) => {
  const real = await original<typeof import("@/lib/settlements/settle-received-sql")>();
  return {
    ...real,
    settleFullReceivedSql: async (...args: Parameters<typeof real.settleFullReceivedSql>) => {
      if (args[3].index === 1 && failures.left > 0) {
        failures.left -= 1;
        throw new Error("connection terminated unexpectedly");
      }
      return real.settleFullReceivedSql(...args);
    },
  };
});

describe("a batch request that fails midway", () => {
  it("gives its lease back: the retry at once completes the rest, once each", async () => {
    const t = await creditTenant();
    const contracts = await contractsOf(t, 3);
    const items = contracts.map((contract_id) => ({ contract_id, type: "full", payment_method: "received" }));
    const requestId = randomUUID();
    const send = () => call(batch, { base: t.base, path: "/v1/settlements/batch", headers: { ...t.headers, "x-request-id": requestId }, json: { items } });

    failures.left = 1;
    const failed = await send();
    expect(failed.status).toBe(503); // a lost database connection is an outage: retry
    expect(failed.body).toMatchObject({ code: "service_unavailable" });
    expect(failed.text).not.toContain("connection terminated");
    // Item 0 before it and item 2, already started beside it (a batch applies a few items at once), finish; item 1 is
    // not applied and nothing after the failure starts.
    const before = await db().settlement.findMany({ where: { tenantId: t.tenant.id } });
    expect(before.map((s) => s.contractId).sort()).toEqual([contracts[0], contracts[2]].sort());

    const retried = await send();
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body).toMatchObject({ status: "completed", created: 3, failed: 0 });
    expect(retried.body.results.map((r: { index: number; status: string }) => [r.index, r.status])).toEqual([[0, "created"], [1, "created"], [2, "created"]]);
    const settlements = await db().settlement.findMany({ where: { tenantId: t.tenant.id } });
    expect(settlements.map((s) => s.contractId).sort()).toEqual([...contracts].sort());
  });
});
