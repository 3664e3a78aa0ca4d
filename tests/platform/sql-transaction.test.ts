import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectDb, pool } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { queryRows, sql, withSqlTransaction } from "@/lib/db/sql";

// A plain-SQL transaction whose connection is lost between two statements (the database restarting, an operator's
// pg_terminate_backend): the process must survive — pg emits 'error' on a checked-out client with no active query,
// and an unhandled 'error' event ends a Node process — the next statement must fail, and the pool must not get the
// dead connection back.

let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
});

afterAll(async () => {
  await admin.end();
  await stopListener();
  await disconnectDb();
});

describe("withSqlTransaction", () => {
  it("fails the transaction, not the process, when its connection is terminated between statements", async () => {
    const marker = `sqltx_${Date.now()}`;
    const errors: unknown[] = [];
    const onUncaught = (err: unknown) => errors.push(err);
    process.on("uncaughtException", onUncaught);
    try {
      const attempt = withSqlTransaction(async () => {
        const [me] = await queryRows<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid, ${marker}::text AS marker`);
        // Terminated while no statement of ours is running: PostgreSQL sends FATAL 57P01 and closes the socket.
        await admin.query("SELECT pg_terminate_backend($1)", [me!.pid]);
        await new Promise((resolve) => setTimeout(resolve, 200));
        return queryRows(sql`SELECT 1 AS one`);
      });
      await expect(attempt).rejects.toThrow();
    } finally {
      process.off("uncaughtException", onUncaught);
    }
    expect(errors).toEqual([]);
    // The pool gave back no dead connection: the next transactions work.
    for (let i = 0; i < 3; i += 1) {
      await expect(withSqlTransaction(() => queryRows<{ one: number }>(sql`SELECT 1 AS one`))).resolves.toEqual([{ one: 1 }]);
    }
    expect(pool().totalCount).toBeGreaterThan(0);
  });
});
