import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The migrations (hand-written SQL, what every database runs) and prisma/schema.prisma (what the client is generated
// from) must describe the same tables. `prisma migrate diff --from-migrations` would say so, but Prisma's WASM schema
// engine crashes on this project's CHECK constraints offline, and so does `db pull`. What works: the SQL Prisma would
// write for the schema from nothing (`--from-empty`). It is applied to a scratch database, and its catalog — columns
// with type, nullability and default, enums, keys and foreign keys, indexes — is compared with the test database's,
// which `npm test` built from the migrations. The migrations may hold more only where Prisma's schema language cannot
// say it: CHECK constraints, generated columns, partial and expression indexes. Anything else differing (a column
// added in one and not the other, a nullability, a default, an index's columns, an enum value) fails here.

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const SCRATCH = `cp_drift_${process.pid}_${Date.now()}`;

const CATALOG = `
SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
       || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
       || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '')
       || CASE WHEN a.attgenerated <> '' THEN ' GENERATED' ELSE '' END AS entry
  FROM pg_attribute a
  JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
 WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped AND c.relname <> '_prisma_migrations'
UNION ALL
SELECT 'enum ' || t.typname || ' (' || string_agg(e.enumlabel, ', ' ORDER BY e.enumsortorder) || ')'
  FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
 WHERE n.nspname = 'public' GROUP BY t.typname
UNION ALL
SELECT 'constraint ' || c.relname || '.' || k.conname || ' ' || pg_get_constraintdef(k.oid)
  FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'public' AND c.relname <> '_prisma_migrations'
UNION ALL
SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'
ORDER BY 1`;

/** What Prisma's schema language cannot express, so only the migrations may have it. */
function onlyMigrationsCanSay(entry: string, generatedColumns: ReadonlySet<string> = new Set()): boolean {
  if (/^constraint \S+ CHECK /.test(entry)) return true;
  if (/^column \S+ .* GENERATED$/.test(entry)) return true;
  // PostgreSQL 18 catalogs NOT NULL as a constraint too: a generated column's comes with the column.
  const notNull = /^constraint (\w+)\.\S+ NOT NULL (\w+)$/.exec(entry);
  if (notNull && generatedColumns.has(`${notNull[1]}.${notNull[2]}`)) return true;
  if (/^index /.test(entry)) {
    const columns = /USING \w+ \((.*?)\)( WHERE .*)?$/.exec(entry);
    return Boolean(columns?.[2]) || Boolean(columns?.[1]?.includes("("));
  }
  return false;
}

async function catalog(connectionString: string): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<{ entry: string }>(CATALOG)).rows.map((row) => row.entry);
  } finally {
    await client.end();
  }
}

async function admin(fn: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}

const scratchUrl = () => {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${SCRATCH}`;
  return url.toString();
};

describe("prisma/schema.prisma and the migrations describe the same database", () => {
  let fromSchema: string[];
  let fromMigrations: string[];

  beforeAll(async () => {
    const { stdout: sql } = await promisify(execFile)(
      path.join(ROOT, "node_modules", ".bin", "prisma"),
      ["migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_OPTIONS: `-r ${path.join(ROOT, "scripts", "unref-timers.cjs")}` },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    expect(sql).toContain('CREATE TABLE "customers"');
    await admin((c) => c.query(`CREATE DATABASE "${SCRATCH}"`));
    const client = new pg.Client({ connectionString: scratchUrl() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
    [fromSchema, fromMigrations] = await Promise.all([catalog(scratchUrl()), catalog(process.env.DATABASE_URL!)]);
  }, 120_000);

  afterAll(async () => {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${SCRATCH}" WITH (FORCE)`));
  });

  it("has every table, column, key, enum and index of the schema in the migrated database, identical", () => {
    expect(fromSchema.length).toBeGreaterThan(500);
    const migrated = new Set(fromMigrations);
    expect(fromSchema.filter((entry) => !migrated.has(entry))).toEqual([]);
  });

  it("has nothing more in the migrated database than what the schema language cannot say", () => {
    const declared = new Set(fromSchema);
    const extra = fromMigrations.filter((entry) => !declared.has(entry));
    const generated = new Set(extra.flatMap((entry) => /^column (\S+) .* GENERATED$/.exec(entry)?.[1] ?? []));
    expect(extra.filter((entry) => !onlyMigrationsCanSay(entry, generated))).toEqual([]);
    // The allowance is not a blanket: these are the kinds it covers, each present today.
    expect(extra.some((entry) => entry.startsWith("constraint emails.emails_status_check CHECK"))).toBe(true);
    expect(extra.some((entry) => entry.startsWith("column customers.search_name text") && entry.endsWith(" GENERATED"))).toBe(true);
    expect(extra.some((entry) => entry.startsWith("column customers.api_json text NOT NULL") && entry.endsWith(" GENERATED"))).toBe(true);
    expect(extra).toContain(
      "index CREATE UNIQUE INDEX settlements_one_pending_per_contract ON public.settlements USING btree (contract_id) WHERE (status = 'pending'::text)",
    );
  });

  it("tells a drift from an allowed extra", () => {
    expect(onlyMigrationsCanSay("column customers.nickname text")).toBe(false);
    expect(onlyMigrationsCanSay("constraint customers.customers_nickname_not_null NOT NULL nickname", new Set(["customers.api_json"]))).toBe(false);
    expect(onlyMigrationsCanSay("constraint customers.customers_api_json_not_null NOT NULL api_json", new Set(["customers.api_json"]))).toBe(true);
    expect(onlyMigrationsCanSay("constraint refunds.refunds_contract_id_fkey FOREIGN KEY (contract_id) REFERENCES contracts(id)")).toBe(false);
    expect(onlyMigrationsCanSay("index CREATE INDEX a_idx ON public.a USING btree (tenant_id, created_at)")).toBe(false);
    expect(onlyMigrationsCanSay("index CREATE INDEX a_idx ON public.a USING btree (tenant_id) WHERE (live)")).toBe(true);
    expect(onlyMigrationsCanSay("index CREATE INDEX a_idx ON public.a USING btree (((payload ->> 'id'::text)))")).toBe(true);
  });
});
