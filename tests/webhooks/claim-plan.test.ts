import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopListener } from "@/lib/db/notifications";
import { DISTINCT_SCAN_LIMIT, DUE_BACKLOG_CHECK, dueCandidates } from "@/lib/webhooks/worker";
import { newTenant } from "../helpers/factory";

// The claim ranks due deliveries without reading more than it needs, whichever way the work is spread: behind a backlog
// (more than DISTINCT_SCAN_LIMIT due) the endpoints with pending deliveries are found by skipping through the pending
// index, one probe each; with many endpoints in backoff and little due, by reading the due rows. Each case runs under
// EXPLAIN ANALYZE inside a transaction that is rolled back (its rows are never seen by a worker), REPEATABLE READ so
// that every statement sees one snapshot: other test files' deliveries (a recovery queues 10,000 at once) are counted
// in the bounds, never assumed away.

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Actual Rows": number; "Actual Loops": number; "Rows Removed by Filter"?: number; Plans?: PlanNode[] };
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await stopListener();
});

/** Rows the statement read from webhook_deliveries (returned, and filtered away, by every scan of it). */
async function rowsRead(statement: string): Promise<number> {
  const [{ "QUERY PLAN": [explained] }] = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`)).rows as [{ "QUERY PLAN": [{ Plan: PlanNode }] }];
  return nodes(explained.Plan)
    .filter((n) => n["Relation Name"] === "webhook_deliveries")
    .reduce((sum, n) => sum + (n["Actual Rows"] + (n["Rows Removed by Filter"] ?? 0)) * n["Actual Loops"], 0);
}

const backlogged = async () => (await client.query<{ backlog: boolean }>(DUE_BACKLOG_CHECK)).rows[0]!.backlog;

/** `count` endpoints of the tenant, each with `perEndpoint` pending deliveries due `dueIn` seconds from now (negative: due). */
async function seed(tenantId: string, tag: string, count: number, perEndpoint: number, dueIn: (g: number) => number) {
  await client.query(
    `INSERT INTO webhook_endpoints (id, tenant_id, environment, url, secret_ciphertext, created_at, updated_at)
     SELECT 'whe_${tag}' || lpad(e::text, 21, '0'), $1, 'sandbox', 'https://receiver.example/hooks', 'unused', now(), now()
       FROM generate_series(1, $2::int) AS e`,
    [tenantId, count],
  );
  const due = Array.from({ length: count * perEndpoint }, (_, i) => dueIn(i + 1));
  await client.query(
    `INSERT INTO webhook_deliveries (id, tenant_id, environment, endpoint_id, event_id, event_type, status, next_attempt_at, created_at, updated_at)
     SELECT 'whd_${tag}' || lpad(g::text, 21, '0'), $1, 'sandbox', 'whe_${tag}' || lpad((1 + (g - 1) % $2::int)::text, 21, '0'),
            'evt_${tag}' || lpad(g::text, 21, '0'), 'customer.created', 'pending', now() + make_interval(secs => ($3::int[])[g]), now(), now()
       FROM generate_series(1, $4::int) AS g`,
    [tenantId, count, due, count * perEndpoint],
  );
  await client.query("ANALYZE webhook_deliveries");
}

describe("claiming deliveries", () => {
  it("behind a backlog on one endpoint: skips through the endpoints, reading about one page each", async () => {
    const { tenant } = await newTenant();
    const backlog = DISTINCT_SCAN_LIMIT * 4;
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
    try {
      await seed(tenant.id, "bk", 1, backlog, (g) => g - backlog - 1); // all due, the first the oldest
      expect(await backlogged()).toBe(true);
      const ranked = await client.query<{ id: string }>(dueCandidates(50, 16, "skip").text);
      // Its 16 oldest (the cap per endpoint), in due order.
      expect(ranked.rows.map((r) => r.id).filter((id) => id.startsWith("whd_bk"))).toEqual(Array.from({ length: 16 }, (_, i) => `whd_bk${String(i + 1).padStart(21, "0")}`));
      // One probe and at most a page and the leased rows per endpoint with pending deliveries (ours and other files', in
      // this snapshot) — however deep the backlog.
      const { endpoints, leased } = (await client.query<{ endpoints: number; leased: number }>(
        `SELECT count(DISTINCT endpoint_id)::int AS endpoints, count(*) FILTER (WHERE locked_until IS NOT NULL)::int AS leased FROM webhook_deliveries WHERE status = 'pending'`,
      )).rows[0]!;
      expect(await rowsRead(dueCandidates(50, 16, "skip").text)).toBeLessThanOrEqual(18 * endpoints + leased);
      // Reading the due rows instead would have read the whole backlog.
      expect(await rowsRead(dueCandidates(50, 16, "distinct").text)).toBeGreaterThanOrEqual(backlog);
    } finally {
      await client.query("ROLLBACK");
    }
  });

  it("with many endpoints in backoff and little due: reads the due rows, not every endpoint", async () => {
    const { tenant } = await newTenant();
    const endpoints = 3000;
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
    try {
      // Every endpoint has a retry due in an hour; the first ten have one due now.
      await seed(tenant.id, "bo", endpoints, 1, (g) => (g <= 10 ? -60 : 3600));
      const ranked = await client.query<{ id: string }>(dueCandidates(500, 16, "distinct").text);
      expect(ranked.rows.map((r) => r.id).filter((id) => id.startsWith("whd_bo")).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `whd_bo${String(i + 1).padStart(21, "0")}`));
      // What is due in this snapshot (ours and other files'), and on how many endpoints: the DISTINCT reads those rows,
      // then at most a page and the leased rows of each such endpoint — none of the 2,990 endpoints with nothing due.
      const { due, busy } = (await client.query<{ due: number; busy: number }>(
        `SELECT count(*)::int AS due, count(DISTINCT endpoint_id)::int AS busy FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()`,
      )).rows[0]!;
      const leased = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending' AND locked_until IS NOT NULL`)).rows[0]!.n;
      expect(await rowsRead(dueCandidates(500, 16, "distinct").text)).toBeLessThanOrEqual(due + 17 * busy + leased);
      // Skipping through the endpoints would have visited each of them.
      expect(await rowsRead(dueCandidates(50, 16, "skip").text)).toBeGreaterThanOrEqual(endpoints);
    } finally {
      await client.query("ROLLBACK");
    }
  });
});
