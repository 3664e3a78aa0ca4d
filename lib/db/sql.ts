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

/** A parameterized statement: sql`SELECT … WHERE id = ${id}` → { text: "… $1", values: [id] }. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i += 1) text += `$${i + 1}${strings[i + 1]}`;
  return { text, values };
}

export async function queryRows<T>(statement: Sql): Promise<T[]> {
  const ambient = ambientClient();
  if (ambient) return ambient.$queryRawUnsafe<T[]>(statement.text, ...statement.values);
  const result = await pool().query(statement.text, statement.values);
  return result.rows as T[];
}

export async function execute(statement: Sql): Promise<void> {
  const ambient = ambientClient();
  if (ambient) {
    await ambient.$executeRawUnsafe(statement.text, ...statement.values);
    return;
  }
  await pool().query(statement.text, statement.values);
}
