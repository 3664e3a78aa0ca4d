import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { freePort } from "@/scripts/lib/database";
import { creditTenant } from "../credit/flow-helpers";
import { killHard, startRouteServer } from "../helpers/route-server-process";
import { contractsOf } from "./helpers";

// A settlement batch across kill -9: the real handlers run in a process of their own, which is SIGKILLed
// while the batch is half done; after a restart the same request (same X-Request-Id) is replayed until it
// completes — the dead request's lease (2 s here) must not block it for long — and every item is applied
// exactly once: one settlement, one payment and one result per contract.

// Building 40 contracts in process takes ~400 requests: above the sandbox's 100/min (read once, on first use).
process.env.RATE_LIMIT_SANDBOX_PER_MINUTE = "1000000";

const LEASE_SECONDS = 2;
const ITEMS = 40;

let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill("SIGKILL");
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("settlement batch across kill -9", () => {
  it("resumes on replay and applies every item exactly once", async () => {
    const t = await creditTenant();
    const ids = await contractsOf(t, ITEMS);
    const items = ids.map((id) => ({ contract_id: id, type: "full", payment_method: "received" }));
    const requestId = randomUUID();
    const port = await freePort();
    const send = () =>
      fetch(`http://127.0.0.1:${port}/v1/settlements/batch`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.key}`, "x-tenant-id": t.tenant.id, "content-type": "application/json", "x-request-id": requestId },
        body: JSON.stringify({ items }),
      });

    // The child's connections carry a name of their own (libpq's PGAPPNAME, read by pg), to see when they are gone.
    const childConnections = `batch-crash-${requestId}`;
    child = await startRouteServer(port, LEASE_SECONDS, "route-server.ts", "sandbox", { PGAPPNAME: childConnections });
    const first = send().catch(() => null); // cut off by the kill
    let before = 0;
    for (let i = 0; i < 2000 && before < 8; i++) {
      await sleep(10);
      const batch = await db().settlementBatch.findFirst({ where: { tenantId: t.tenant.id, requestId } });
      before = batch ? await db().settlementBatchItem.count({ where: { batchId: batch.id } }) : 0;
    }
    const childSessions = async () =>
      (await db().$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${childConnections}`)[0]!.n;
    expect(await childSessions()).toBeGreaterThan(0); // the name tells its sessions apart
    await killHard(child);
    expect(await first).toBeNull();
    // A COMMIT the child sent just before it died may still be applied: the batch is as the kill left it only once its
    // sessions are gone (PostgreSQL ends each as it finds the socket closed).
    const deadline = Date.now() + 10_000;
    while ((await childSessions()) > 0) {
      if (Date.now() > deadline) throw new Error("the killed server's database sessions were still there after 10 s");
      await sleep(20);
    }
    // Batch, items and settlements read in one statement (one snapshot).
    const [atKillRow] = await db().$queryRaw<{ id: string; status: string; items: number; settlements: number }[]>`
      SELECT b.id, b.status,
             (SELECT count(*)::int FROM settlement_batch_items i WHERE i.batch_id = b.id) AS items,
             (SELECT count(*)::int FROM settlements s WHERE s.batch_id = b.id) AS settlements
        FROM settlement_batches b WHERE b.tenant_id = ${t.tenant.id} AND b.request_id = ${requestId}`;
    expect(atKillRow).toBeDefined();
    const batch = atKillRow!;
    const atKill = batch.items;
    expect(batch.status).toBe("processing");
    expect(atKill).toBeGreaterThanOrEqual(8);
    expect(atKill).toBeLessThan(ITEMS);
    // Effects and results agree at the moment of the kill: nothing applied without its result row.
    expect(batch.settlements).toBe(atKill);

    child = await startRouteServer(port, LEASE_SECONDS);
    const statuses: number[] = [];
    let done: { status: string; processed: number; created: number; failed: number } | undefined;
    for (let attempt = 0; attempt < 40 && !done; attempt++) {
      const res = await send();
      statuses.push(res.status);
      const body = await res.json();
      if (res.status === 201) done = body;
      else {
        expect(body.code).toBe("idempotency_in_progress"); // the dead request's lease, until it lapses
        await sleep(250);
      }
    }
    expect(done).toMatchObject({ status: "completed", processed: ITEMS, created: ITEMS, failed: 0 });
    expect(statuses.filter((s) => s !== 409 && s !== 201)).toEqual([]);
    for (const id of ids) {
      expect(await db().settlement.count({ where: { contractId: id } })).toBe(1);
      expect(await db().payment.count({ where: { contractId: id } })).toBe(1);
    }
    expect(await db().settlementBatchItem.count({ where: { batchId: batch.id } })).toBe(ITEMS);
    console.log(`batch kill -9: ${atKill}/${ITEMS} items done at the kill; replayed ${statuses.length}× (${statuses.join(", ")}) until complete`);
  }, 180_000);
});
