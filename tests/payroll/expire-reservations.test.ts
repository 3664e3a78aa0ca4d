import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { captureLogsForTests } from "@/lib/log";
import { expireReservations } from "@/lib/payroll/reservations";
import { newTenant } from "../helpers/factory";

// `npm run jobs -- expire-reservations`: every margin reservation past its expires_at is expired in one run, however
// many there are (it used to take 1,000 and leave the rest for a later run), each with its event; one another
// transaction holds locked past the job's lock timeout is logged by id and left for the next run instead of failing
// the run. The job's connections wait at most 200 ms for a lock (lock_timeout, set for this file's connections
// through DATABASE_URL), so the lock wait ends by itself; nothing is asserted about time.

const url = new URL(process.env.DATABASE_URL!);
url.searchParams.set("options", "-c lock_timeout=200");
process.env.DATABASE_URL = url.toString(); // before the client is made (lib/db/client.ts reads it once)

/** `count` reservations of a new tenant, reserved and past their expires_at, ids `<prefix>000001` … in order. */
async function dueReservations(count: number): Promise<{ tenantId: string; prefix: string }> {
  const { tenant } = await newTenant();
  const prefix = `mgr_${randomBytes(4).toString("hex")}_`;
  const raw = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await raw.connect();
  try {
    await raw.query(
      `INSERT INTO margin_reservations (id, tenant_id, environment, customer_id, margin_query_id, kind, installment_amount, term, status,
                                        expires_at, created_at, updated_at)
       SELECT $3 || lpad(g::text, 6, '0'), $1, 'sandbox', 'cus_' || $3, 'mgq_' || $3, 'loan', 1000, 12, 'reserved',
              now() - interval '1 minute', now(), now()
       FROM generate_series(1, $2::int) AS g`,
      [tenant.id, count, prefix],
    );
  } finally {
    await raw.end();
  }
  return { tenantId: tenant.id, prefix };
}

const statusChanges = (tenantId: string) => db().outboxEvent.count({ where: { tenantId, type: "margin_reservation.status_changed" } });

describe("expire-reservations", () => {
  it("expires all of 1,100 due in one run, each with its event", async () => {
    const { tenantId } = await dueReservations(1_100);
    const result = await expireReservations();
    expect(result.expired).toBeGreaterThanOrEqual(1_100);
    expect(result.failed).toBe(0);
    expect(await db().marginReservation.count({ where: { tenantId, status: "reserved" } })).toBe(0);
    expect(await db().marginReservation.count({ where: { tenantId, status: "expired" } })).toBe(1_100);
    expect(await statusChanges(tenantId)).toBe(1_100);
  }, 180_000);

  it("goes on past one it cannot lock, logging it by id, and expires that one on the next run", async () => {
    const { tenantId, prefix } = await dueReservations(3);
    const locked = `${prefix}000002`; // held by another transaction (a cancel in progress, say)
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    const lines: string[] = [];
    let result: Awaited<ReturnType<typeof expireReservations>>;
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT id FROM margin_reservations WHERE id = $1 FOR UPDATE", [locked]);
      captureLogsForTests((line) => lines.push(line), "warn");
      result = await expireReservations();
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
    }
    expect(result.failed).toBeGreaterThanOrEqual(1);
    const left = await db().marginReservation.findMany({ where: { tenantId, status: "reserved" }, select: { id: true } });
    expect(left.map((r) => r.id)).toEqual([locked]);
    const failure = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.reservation_id === locked);
    expect(failure).toMatchObject({ tenant_id: tenantId, msg: "expiring a margin reservation failed; the job goes on (retried next run)" });
    expect(await statusChanges(tenantId)).toBe(2);

    expect((await expireReservations()).expired).toBeGreaterThanOrEqual(1);
    expect(await db().marginReservation.count({ where: { tenantId, status: "expired" } })).toBe(3);
    expect(await statusChanges(tenantId)).toBe(3);
  });
});
