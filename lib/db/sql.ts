import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";
import { pool } from "./client";
import { ambientClient } from "./transaction";

// Hot statements in plain SQL, for the few paths where Prisma's per-statement cost (~0.6–1 ms of CPU, measured
// by bench/margin-query-cost.ts) is most of a request's work. Inside an idempotent request's transaction a
// statement runs in that transaction (through Prisma, so the effect and the stored response still commit
// together); otherwise straight on the pg pool behind Prisma.
//
// Rows come back as the driver gives them, and the two drivers differ (pg: int8 as string, date as a local
// Date; Prisma: bigint, UTC Date): select only text/jsonb/integer columns, or cast (`::text`) in the SQL.

export type Sql = { text: string; values: unknown[] };

/** SQL text spliced in as is (a constant column list), never a value: values are always parameters. */
export class Raw {
  constructor(readonly text: string) {}
}
export const raw = (text: string): Raw => new Raw(text);

/** A parameterized statement: sql`SELECT … WHERE id = ${id}` → { text: "… $1", values: [id] }. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  let text = strings[0]!;
  const params: unknown[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (value instanceof Raw) text += value.text;
    else {
      params.push(value);
      text += `$${params.length}`;
    }
    text += strings[i + 1];
  }
  return { text, values: params };
}

// A plain-SQL transaction on one pool connection (withSqlTransaction): while fn runs, queryRows and execute
// use that connection. For hot loops of small transactions (a settlement batch's items), where Prisma's
// interactive transaction costs more than the work.
const sqlTransaction = new AsyncLocalStorage<pg.PoolClient>();

export async function withSqlTransaction<T>(fn: () => Promise<T>): Promise<T> {
  const client = await pool().connect();
  let broken = false;
  // The pool listens for errors only on idle connections: one lost while checked out between two statements (the
  // database restarting or terminating the session) emitted an 'error' nobody handled, which ends the process —
  // the server, the webhook worker. Now the next statement fails like any lost connection and the client is dropped.
  const lost = () => {
    broken = true;
  };
  client.on("error", lost);
  try {
    await client.query("BEGIN");
    const result = await sqlTransaction.run(client, fn);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {
      broken = true; // the connection is gone: do not return it to the pool
    });
    throw err;
  } finally {
    client.removeListener("error", lost);
    client.release(broken);
  }
}

export async function queryRows<T>(statement: Sql): Promise<T[]> {
  const own = sqlTransaction.getStore();
  if (own) return (await own.query(statement.text, statement.values)).rows as T[];
  const ambient = ambientClient();
  if (ambient) return ambient.$queryRawUnsafe<T[]>(statement.text, ...statement.values);
  const result = await pool().query(statement.text, statement.values);
  return result.rows as T[];
}

export async function execute(statement: Sql): Promise<void> {
  const own = sqlTransaction.getStore();
  if (own) {
    await own.query(statement.text, statement.values);
    return;
  }
  const ambient = ambientClient();
  if (ambient) {
    await ambient.$executeRawUnsafe(statement.text, ...statement.values);
    return;
  }
  await pool().query(statement.text, statement.values);
}
