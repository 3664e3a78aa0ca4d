import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopListener } from "@/lib/db/notifications";
import { dueCandidates } from "@/lib/webhooks/worker";
import { newTenant } from "../helpers/factory";

// The claim ranks due deliveries without reading the backlog: the endpoints with pending deliveries are found by
// skipping through the pending index (one probe each), then at most `perEndpoint` rows of each are read. Run under
// EXPLAIN ANALYZE inside a transaction that is rolled back (its 20,000 due deliveries are never seen by a worker).

const BACKLOG = 20_000;

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

describe("claiming deliveries behind a backlog", () => {
  it("reads about one page per endpoint, not every due delivery", async () => {
    const { tenant } = await newTenant();
    await client.query("BEGIN");
    try {
      const endpointId = `whe_plan${tenant.id.slice(4)}`;
      await client.query(
        `INSERT INTO webhook_endpoints (id, tenant_id, environment, url, secret_ciphertext, created_at, updated_at)
         VALUES ($1, $2, 'sandbox', 'https://receiver.example/hooks', 'unused', now(), now())`,
        [endpointId, tenant.id],
      );
      await client.query(
        `INSERT INTO webhook_deliveries (id, tenant_id, environment, endpoint_id, event_id, event_type, status, next_attempt_at, created_at, updated_at)
         SELECT 'whd_plan' || lpad(g::text, 22, '0'), $2, 'sandbox', $1, 'evt_plan' || lpad(g::text, 22, '0'), 'customer.created', 'pending',
                now() - make_interval(secs => $3::int - g), now(), now()
           FROM generate_series(1, $3::int) AS g`,
        [endpointId, tenant.id, BACKLOG],
      );
      await client.query("ANALYZE webhook_deliveries");

      const ranked = await client.query<{ id: string }>(dueCandidates(50, 16).text);
      const ours = ranked.rows.map((r) => r.id).filter((id) => id.startsWith("whd_plan"));
      // Its 16 oldest (the cap per endpoint), in due order.
      expect(ours).toEqual(Array.from({ length: 16 }, (_, i) => `whd_plan${String(i + 1).padStart(22, "0")}`));

      const [{ "QUERY PLAN": [explained] }] = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${dueCandidates(50, 16).text}`)).rows as [{ "QUERY PLAN": [{ Plan: PlanNode }] }];
      const read = nodes(explained.Plan)
        .filter((n) => n["Relation Name"] === "webhook_deliveries")
        .reduce((sum, n) => sum + n["Actual Rows"] * n["Actual Loops"] + (n["Rows Removed by Filter"] ?? 0) * n["Actual Loops"], 0);
      // Other test files' pending deliveries (their endpoints' probes and pages) count too: far below the backlog.
      expect(read).toBeLessThan(BACKLOG / 4);
    } finally {
      await client.query("ROLLBACK");
    }
  });
});
