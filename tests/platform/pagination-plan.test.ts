import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysetOrder, keysetWhere, type PageAfter } from "@/lib/db/paginate";
import { stopListener } from "@/lib/db/notifications";
import { seekPageSql } from "@/lib/db/seek-sql";
import { where } from "@/lib/scope";
import { newTenant } from "../helpers/factory";

// Deep pages seek: the list query Prisma sends for a cursor 45,000 rows deep (built from the same helpers the
// list services use) is run under EXPLAIN ANALYZE. It must be an index scan on (tenant_id, environment,
// created_at, id) whose index condition bounds created_at, reading about one page of rows — not a scan that
// filters away every row before the cursor.

const ROWS = 50_000;
const DEPTH = 45_000;
const LIMIT = 100;

type PlanNode = {
  "Node Type": string;
  "Index Name"?: string;
  "Index Cond"?: string;
  "Actual Rows": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
};

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

type Logged = PrismaClient<{ log: [{ emit: "event"; level: "query" }] }, "query">;
let logged: Logged;
let raw: pg.Client;
let queries: { query: string; params: string }[] = [];

beforeAll(async () => {
  logged = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL! }), log: [{ emit: "event", level: "query" }] }) as Logged;
  logged.$on("query", (e) => queries.push({ query: e.query, params: e.params }));
  raw = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await raw.connect();
});

afterAll(async () => {
  await logged.$disconnect();
  await raw.end();
  await stopListener();
});

describe("keyset pagination at depth", () => {
  it("seeks on the list index for a cursor 45,000 rows deep (customers)", async () => {
    const tenantId = (await newTenant()).tenant.id;
    const scope = { tenantId, environment: "sandbox" as const };
    // 50,000 customers one second apart, plus a run of 10 sharing one timestamp (the id breaks the tie).
    await raw.query(
      `INSERT INTO customers (id, tenant_id, environment, kind, document, name, created_at, updated_at)
       SELECT 'cus_' || lpad(g::text, 26, '0'), $1, 'sandbox', 'person', lpad(g::text, 11, '0'), 'Cliente ' || g,
              timestamp '2026-01-01' + make_interval(secs => CASE WHEN g BETWEEN 44995 AND 45004 THEN 44995 ELSE g END),
              now()
       FROM generate_series(1, $2::int) AS g`,
      [tenantId, ROWS],
    );
    await raw.query("ANALYZE customers");
    const cursorRow = await raw.query<{ id: string; created_at: Date }>(
      `SELECT id, created_at FROM customers WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
      [tenantId, DEPTH],
    );
    const after: PageAfter = { at: cursorRow.rows[0]!.created_at, id: cursorRow.rows[0]!.id };

    queries = [];
    const page = await logged.customer.findMany({ where: { ...where(scope), ...keysetWhere(after) }, orderBy: keysetOrder(), take: LIMIT + 1 });
    // The page is exactly the rows after the cursor, in order, ties included.
    const expected = await raw.query<{ id: string }>(
      `SELECT id FROM customers WHERE tenant_id = $1 AND (created_at, id) < ($2, $3) ORDER BY created_at DESC, id DESC LIMIT $4`,
      [tenantId, after.at, after.id, LIMIT + 1],
    );
    expect(page.map((r) => r.id)).toEqual(expected.rows.map((r) => r.id));

    const sent = queries.find((q) => q.query.includes('"customers"') && q.query.includes("ORDER BY"))!;
    const params = (JSON.parse(sent.params) as unknown[]).map((p) => (typeof p === "string" && /^\d{4}-\d\d-\d\dT/.test(p) ? new Date(p) : p));
    const explained = await raw.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sent.query}`, params);
    const plan = nodes(explained.rows[0]!["QUERY PLAN"][0].Plan);
    const scan = plan.find((n) => n["Node Type"].startsWith("Index"))!;
    expect(scan["Index Name"]).toBe("customers_tenant_id_environment_created_at_id_idx");
    expect(scan["Index Cond"]).toMatch(/created_at <=/);
    expect(scan["Actual Rows"]).toBeLessThanOrEqual(LIMIT + 1);
    expect(scan["Rows Removed by Filter"] ?? 0).toBeLessThanOrEqual(10); // only the cursor's own timestamp

    // The plain-SQL page the customers list sends (lib/db/seek-sql.ts): same rows, an index range on the
    // row value, about one page read.
    const seek = seekPageSql({ table: "customers", columns: "id", scope, after, limit: LIMIT });
    const seekRows = await raw.query<{ id: string }>(seek.text, seek.values);
    expect(seekRows.rows.map((r) => r.id)).toEqual(expected.rows.map((r) => r.id));
    const seekPlan = nodes((await raw.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${seek.text}`, seek.values)).rows[0]!["QUERY PLAN"][0].Plan);
    const seekScan = seekPlan.find((n) => n["Node Type"].startsWith("Index"))!;
    expect(seekScan["Index Name"]).toBe("customers_tenant_id_environment_created_at_id_idx");
    expect(seekScan["Index Cond"]).toMatch(/ROW\(created_at, id\) </);
    expect(seekScan["Actual Rows"]).toBeLessThanOrEqual(LIMIT + 1);

    // Leave the shared test database as small as the other suites expect (e.g. the secrets-at-rest scan).
    await raw.query("DELETE FROM customers WHERE tenant_id = $1", [tenantId]);
  }, 120_000);
});
