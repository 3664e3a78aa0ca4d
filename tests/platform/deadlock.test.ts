import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toApiError } from "@/lib/api/error-response";
import { rootDb } from "@/lib/db/client";

// A transaction PostgreSQL ends to break a deadlock (40P01) changed nothing: its request answers a retryable 503
// with Retry-After, never a 500 — whether the statement ran through Prisma or straight on the pg pool. The deadlock
// here is a real one: two transactions lock two rows in opposite orders.

const table = `deadlock_probe_${process.pid}`;
let admin: pg.Client;
beforeAll(async () => {
  admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE TABLE ${table} (id int PRIMARY KEY, n int NOT NULL DEFAULT 0)`);
  await admin.query(`INSERT INTO ${table} (id) VALUES (1), (2)`);
});
afterAll(async () => {
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.end();
});

/** Runs `side(first, second)` twice at once, crossed; returns the error of the transaction PostgreSQL ended. */
async function deadlock(side: (first: number, second: number, bothHoldOne: Promise<void>, holding: () => void) => Promise<unknown>): Promise<unknown> {
  let held = 0;
  let release!: () => void;
  const bothHoldOne = new Promise<void>((resolve) => (release = resolve));
  const holding = () => {
    held += 1;
    if (held === 2) release();
  };
  const outcomes = await Promise.allSettled([side(1, 2, bothHoldOne, holding), side(2, 1, bothHoldOne, holding)]);
  const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
  expect(failed).toHaveLength(1); // one victim; the other went on
  return failed[0]!.reason;
}

describe("a deadlock victim", () => {
  it("through Prisma: 503 service_unavailable, retryable, Retry-After", async () => {
    const err = await deadlock((first, second, bothHoldOne, holding) =>
      rootDb().$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`UPDATE ${table} SET n = n + 1 WHERE id = $1`, first);
        holding();
        await bothHoldOne;
        await tx.$executeRawUnsafe(`UPDATE ${table} SET n = n + 1 WHERE id = $1`, second);
      }, { timeout: 20_000 }),
    );
    const api = toApiError(err, "req_test");
    expect([api.status, api.code, api.extra, api.headers]).toEqual([503, "service_unavailable", { retryable: true }, { "retry-after": "1" }]);
  });

  it("on the pg pool (plain SQL): the same", async () => {
    const err = await deadlock(async (first, second, bothHoldOne, holding) => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      try {
        await client.query("BEGIN");
        await client.query(`UPDATE ${table} SET n = n + 1 WHERE id = $1`, [first]);
        holding();
        await bothHoldOne;
        await client.query(`UPDATE ${table} SET n = n + 1 WHERE id = $1`, [second]);
        await client.query("COMMIT");
      } finally {
        await client.end();
      }
    });
    const api = toApiError(err, "req_test");
    expect([api.status, api.code, api.extra]).toEqual([503, "service_unavailable", { retryable: true }]);
  });
});
