import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { generateClient, migrate, ROOT } from "./database";

// What a start needs before it may import the database client, done only when it is needed, so that a
// later start costs milliseconds instead of the ~5 s of two Prisma CLI runs:
// - `prisma generate` when the generated client is missing or was made from another schema (a fresh
//   clone installed with --ignore-scripts, or a pulled schema change);
// - `prisma migrate deploy` when a migration folder is not yet recorded as applied in the database.

const SCHEMA = path.join(ROOT, "prisma", "schema.prisma");
const GENERATED_SCHEMA = path.join(ROOT, "node_modules", ".prisma", "client", "schema.prisma");
const MIGRATIONS = path.join(ROOT, "prisma", "migrations");

// The generated copy is the schema as `prisma format` lays it out: it realigns columns and may move a block
// attribute (an @@unique after the @@index lines), so two schemas are the same when they hold the same lines,
// without whitespace, in the same blocks (each line is keyed by the model or enum it is in, so a field moved
// to another model is a change). A mismatch here once cost every later start a needless 3 s `prisma generate`.
export function schemaLines(text: string): string {
  let block = "";
  const lines: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\s+/g, "");
    if (!line) continue;
    if (line.endsWith("{")) block = line;
    lines.push(`${block}\t${line}`);
    if (line === "}") block = "";
  }
  return lines.sort().join("\n");
}

export function clientIsCurrent(): boolean {
  return existsSync(GENERATED_SCHEMA) && schemaLines(readFileSync(GENERATED_SCHEMA, "utf8")) === schemaLines(readFileSync(SCHEMA, "utf8"));
}

export async function ensureClient(): Promise<boolean> {
  if (clientIsCurrent()) return false;
  await generateClient();
  return true;
}

export function migrationNames(): string[] {
  return readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Migrations on disk that the database has not finished applying (all of them on a new database). */
export async function pendingMigrations(databaseUrl: string): Promise<string[]> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const table = await client.query("SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS present");
    if (!table.rows[0]?.present) return migrationNames();
    const applied = await client.query<{ migration_name: string }>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
    );
    const done = new Set(applied.rows.map((row) => row.migration_name));
    return migrationNames().filter((name) => !done.has(name));
  } finally {
    await client.end();
  }
}

export async function ensureMigrated(databaseUrl: string): Promise<number> {
  const pending = await pendingMigrations(databaseUrl);
  if (pending.length > 0) await migrate(databaseUrl);
  return pending.length;
}
