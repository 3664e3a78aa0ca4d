import pg from "pg";
import { describe, expect, it } from "vitest";
import { POST as createCharge } from "@/app/v1/charges/route";
import { POST as issueContract } from "@/app/v1/contracts/route";
import { runCollectionJob } from "@/lib/collection/collection-job";
import { db } from "@/lib/db/client";
import { captureLogsForTests } from "@/lib/log";
import { call } from "../helpers/http";
import { creditTenant, LATE_INSTALLMENTS, lateContractDates, signedProposal } from "../credit/flow-helpers";

// One row the collection job cannot change — here an expired Pix charge another transaction holds FOR UPDATE (a slow
// payment), past the job's lock timeout — is logged by id and left for the next run: the other charges still expire and
// every late installment is still announced (it used to fail the whole run, for every tenant). The job's connections
// wait at most 200 ms for a lock (lock_timeout, set for this file's connections through DATABASE_URL), so the lock
// wait ends by itself; nothing is asserted about time.

const url = new URL(process.env.DATABASE_URL!);
url.searchParams.set("options", "-c lock_timeout=200");
process.env.DATABASE_URL = url.toString(); // before the client is made (lib/db/client.ts reads it once)

describe("collection job with a row locked by another transaction", () => {
  it("skips that row, reporting it, and does everything else", async () => {
    const t = await creditTenant();
    const { proposal } = await signedProposal(t, lateContractDates());
    const contract = (await call(issueContract, { base: t.base, path: "/v1/contracts", headers: t.headers, json: { proposal_id: proposal.id } })).body as { id: string };
    const cob = async () => {
      const charge = (await call(createCharge, { base: t.base, path: "/v1/charges", headers: t.headers, json: { contract_id: contract.id, method: "pix", pix: { kind: "cob", expires_in: 60 } } })).body as { id: string };
      await db().charge.update({ where: { id: charge.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      return charge.id;
    };
    // Two expired charges, the locked one read first (keyset over ids): the other comes after it.
    const [locked, free] = [await cob(), await cob()].sort();

    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    const lines: string[] = [];
    captureLogsForTests((line) => lines.push(line), "warn");
    let result: Awaited<ReturnType<typeof runCollectionJob>>;
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT id FROM charges WHERE id = $1 FOR UPDATE", [locked]);
      result = await runCollectionJob();
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
    }

    expect(result.failed).toBeGreaterThanOrEqual(1);
    const failure = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.charge_id === locked);
    expect(failure).toMatchObject({ tenant_id: t.tenant.id, msg: "expiring a charge failed; the job goes on (retried next run)" });
    const statuses = Object.fromEntries((await db().charge.findMany({ where: { id: { in: [locked!, free!] } } })).map((c) => [c.id, c.status]));
    expect(statuses).toEqual({ [locked!]: "pending", [free!]: "expired" });
    // The steps after the failed row's still ran: every late installment is marked and announced once.
    expect(await db().installment.count({ where: { contractId: contract.id, overdueAt: { not: null } } })).toBe(LATE_INSTALLMENTS);
    const events = (type: string) => db().outboxEvent.count({ where: { tenantId: t.tenant.id, type } });
    expect({ expired: await events("charge.expired"), overdue: await events("installment.overdue") }).toEqual({ expired: 1, overdue: LATE_INSTALLMENTS });

    // The next run, the lock gone, does what was left.
    await runCollectionJob();
    expect((await db().charge.findUniqueOrThrow({ where: { id: locked } })).status).toBe("expired");
    expect({ expired: await events("charge.expired"), overdue: await events("installment.overdue") }).toEqual({ expired: 2, overdue: LATE_INSTALLMENTS });
  }, 60_000);
});
