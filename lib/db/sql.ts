import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";
import { pool, sidePool } from "./client";
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

// Statements inside withSqlTransaction run as named prepared statements: the same few statements repeat once per
// item of a hot loop (a settlement batch, the webhook worker), and parsing and planning them again each time was
// ≈ 0.15 ms per statement of PostgreSQL's time (a batch of 1,000 settlements: 5.5 → 4.7 s). The driver prepares a
// name once per connection. Names are per distinct text, bounded: past the bound (no hot loop has that many
// statements) a statement runs unnamed.
const MAX_NAMED_STATEMENTS = 200;
const statementNames = new Map<string, string>();
function inOwnTransaction(client: pg.PoolClient, statement: Sql): Promise<pg.QueryResult> {
  let name = statementNames.get(statement.text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `cp_${statementNames.size}`;
    statementNames.set(statement.text, name);
  }
  return client.query({ name, text: statement.text, values: statement.values });
}

export async function queryRows<T>(statement: Sql): Promise<T[]> {
  const own = sqlTransaction.getStore();
  if (own) return (await inOwnTransaction(own, statement)).rows as T[];
  const ambient = ambientClient();
  if (ambient) return ambient.$queryRawUnsafe<T[]>(statement.text, ...statement.values);
  const result = await pool().query(statement.text, statement.values);
  return result.rows as T[];
}

/**
 * Runs a statement committed at once on a connection of its own — never in the caller's transaction — for a counter
 * whose row lock must not be held for the rest of that transaction (a boleto's nosso número: held, it serialized a
 * tenant's boletos behind every open transaction, and a charge holding the counter while it waited for a contract a
 * settlement had locked — the settlement then waiting for the counter — deadlocked). A number taken by a transaction
 * that then rolls back is a gap, which numbering allows. Outside any transaction, on the pool; inside one (ambient,
 * withSqlTransaction, or `inTransaction` for a Prisma transaction the caller passes around), on the environment's
 * "counters" side pool: on the main pool, as many such callers as it has connections would each wait for another.
 */
export async function queryCommitted<T>(statement: Sql, environment: "sandbox" | "production", inTransaction = false): Promise<T[]> {
  const target = inTransaction || sqlTransaction.getStore() || ambientClient() ? sidePool(`counters-${environment}`) : pool();
  return (await target.query(statement.text, statement.values)).rows as T[];
}

export async function execute(statement: Sql): Promise<void> {
  const own = sqlTransaction.getStore();
  if (own) {
    await inOwnTransaction(own, statement);
    return;
  }
  const ambient = ambientClient();
  if (ambient) {
    await ambient.$executeRawUnsafe(statement.text, ...statement.values);
    return;
  }
  await pool().query(statement.text, statement.values);
}
