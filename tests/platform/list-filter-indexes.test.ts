import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listCharges, listPayments } from "@/lib/collection/charges";
import { ListChargesQuery, ListPaymentsQuery } from "@/lib/collection/schemas";
import { listContracts } from "@/lib/contracts/queries";
import { ListContractsQuery } from "@/lib/contracts/schemas";
import { stopListener } from "@/lib/db/notifications";
import { reviewQueue, ReviewQueueQuery } from "@/lib/panel/proposal-review";
import { listMarginQueries } from "@/lib/payroll/margin-queries";
import { listReservations } from "@/lib/payroll/reservations";
import { ListMarginQueriesQuery, ListReservationsQuery } from "@/lib/payroll/schemas";
import { listProposals } from "@/lib/proposals/queries";
import { ListProposalsQuery } from "@/lib/proposals/schemas";
import { listRiskAssessments } from "@/lib/risk/queries";
import { ListRiskAssessmentsQuery } from "@/lib/risk/schemas";
import type { Scope } from "@/lib/scope";
import { listSimulations } from "@/lib/simulations/queries";
import { ListSimulationsQuery } from "@/lib/simulations/schemas";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { ListDeliveriesQuery } from "@/lib/webhooks/schemas";
import { newTenant } from "../helpers/factory";
import { recordSentStatements, type SentStatement } from "../helpers/sent-statements";

// Selective list filters seek (migration 20261129090000_list_filter_indexes): a customer's simulations, proposals
// and contracts, a contract's charges and payments, the review queue of pending proposals… Each list service is
// called as the route calls it; the SELECT it sends is captured and run again under EXPLAIN ANALYZE (enable_seqscan
// off). The target parent's few rows are spread among NOISE rows of another parent in the same tenant, so walking the
// tenant's (created_at, id) index would read hundreds of rows for a page. The plan must instead be an index scan on
// the filter's own index, in keyset order (no Sort), reading about one page — the first page and the one after its
// cursor.

const NOISE = 3_000;
const TARGET = 30;
const LIMIT = 10;

type PlanNode = {
  "Node Type": string;
  "Index Name"?: string;
  "Index Cond"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
};
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

// Every statement the services send, from whichever pool (Prisma's adapter and lib/db/sql.ts both use pg.Client).
let recorder: ReturnType<typeof recordSentStatements>;

let raw: pg.Client;
let scope: Scope;
const tag = randomBytes(3).toString("hex").toUpperCase(); // ids unique to this run: [0-9A-Z]{26} after the prefix
const id = (prefix: string, n: number) => `${prefix}_${tag}${String(n).padStart(20, "0")}`;
const CUSTOMER = id("cus", 1);
const OTHER_CUSTOMER = id("cus", 2);
const CONTRACT = id("ctr", 1_000_001);
const OTHER_CONTRACT = id("ctr", 1_000_002);
const ENDPOINT = id("whe", 1);
const OTHER_ENDPOINT = id("whe", 2);

// Row g of a table: g ≤ TARGET belongs to the target parent, one a minute from 2026-01-01 00:01; the rest to the other
// parent, one a second from 00:00:31 to 00:50:30 — around and between the target rows (about 60 of them between two
// target rows, 1,200 newer than the newest): walking the tenant index would read hundreds of rows for each page.
const isTarget = (g: string) => `(${g} <= ${TARGET})`;
const createdAt = (g: string) =>
  `timestamptz '2026-01-01 00:00:00+00' + CASE WHEN ${isTarget(g)} THEN make_interval(mins => ${g}) ELSE make_interval(secs => ${g}) END`;
const pick = (g: string, target: string, other: string) => `CASE WHEN ${isTarget(g)} THEN '${target}' ELSE '${other}' END`;

const TABLES = ["simulations", "proposals", "contracts", "charges", "payments", "risk_assessments", "margin_queries", "margin_reservations", "webhook_deliveries", "webhook_endpoints"];

async function seed(tenantId: string) {
  const rows = NOISE + TARGET;
  const common = (prefix: string) => `'${prefix}_${tag}' || lpad(g::text, 20, '0'), $1, 'sandbox'`;
  const series = `FROM generate_series(1, $2::int) AS g`;
  const statements = [
    `INSERT INTO simulations (id, tenant_id, environment, customer_id, product, amortization, monthly_rate, term, principal, released_amount,
                              disbursement_date, first_due_date, input, result, summary, created_at)
     SELECT ${common("sim")}, ${pick("g", CUSTOMER, OTHER_CUSTOMER)}, 'personal_loan', 'price', '0.02', 12, 100000, 100000,
            date '2026-01-01', date '2026-02-01', '{}', '{}', '{"iof": {}, "fees": [], "totals": {}, "cet": {}}', ${createdAt("g")} ${series}`,
    // The target customer's proposals wait for review; the others are drafts.
    `INSERT INTO proposals (id, tenant_id, environment, customer_id, status, terms, created_at, updated_at)
     SELECT ${common("prp")}, ${pick("g", CUSTOMER, OTHER_CUSTOMER)}, ${pick("g", "pending_review", "draft")},
            '{"product": "personal_loan", "installment_amount": 1000}', ${createdAt("g")}, now() ${series}`,
    `INSERT INTO contracts (id, tenant_id, environment, number, proposal_id, customer_id, status, principal, monthly_rate, term, disbursement_date,
                            terms, created_at, updated_at)
     SELECT ${common("ctr")}, 'CCB-${tag}-' || g, 'prp_${tag}' || lpad(g::text, 20, '0'), ${pick("g", CUSTOMER, OTHER_CUSTOMER)}, 'active',
            100000, '0.02', 12, date '2026-01-01', '{"product": "personal_loan"}', ${createdAt("g")}, now() ${series}`,
    `INSERT INTO charges (id, tenant_id, environment, contract_id, customer_id, method, status, due_date, amount, breakdown, created_at, updated_at)
     SELECT ${common("chg")}, ${pick("g", CONTRACT, OTHER_CONTRACT)}, '${OTHER_CUSTOMER}', 'pix', 'pending', date '2026-03-01', 1000, '{}',
            ${createdAt("g")}, now() ${series}`,
    `INSERT INTO payments (id, tenant_id, environment, contract_id, amount, source, paid_at, created_at)
     SELECT ${common("pay")}, ${pick("g", CONTRACT, OTHER_CONTRACT)}, 1000, 'manual', ${createdAt("g")}, ${createdAt("g")} ${series}`,
    `INSERT INTO risk_assessments (id, tenant_id, environment, customer_id, scorecard_version, score, band, decision, reasons, inputs,
                                   max_affordable_installment, created_at)
     SELECT ${common("rsk")}, ${pick("g", CUSTOMER, OTHER_CUSTOMER)}, 'v1', 700, 'B', 'approve', '[]', '{}', 1000, ${createdAt("g")} ${series}`,
    `INSERT INTO margin_queries (id, tenant_id, environment, customer_id, source_kind, source, authority, authority_query_id, result,
                                 available_loan_margin, valid_until, created_at)
     SELECT ${common("mgq")}, ${pick("g", CUSTOMER, OTHER_CUSTOMER)}, 'inss', '{}', 'sandbox_simulator', 'q' || g, '{"margins": []}', 1000,
            ${createdAt("g")}, ${createdAt("g")} ${series}`,
    `INSERT INTO margin_reservations (id, tenant_id, environment, customer_id, margin_query_id, kind, installment_amount, term, status,
                                      created_at, updated_at)
     SELECT ${common("mgr")}, ${pick("g", CUSTOMER, OTHER_CUSTOMER)}, 'mgq_${tag}' || lpad(g::text, 20, '0'), 'loan', 1000, 12, 'released',
            ${createdAt("g")}, now() ${series}`,
    `INSERT INTO webhook_endpoints (id, tenant_id, environment, url, secret_ciphertext, updated_at)
     VALUES ('${ENDPOINT}', $1, 'sandbox', 'https://a.example/hook', 'x', now()), ('${OTHER_ENDPOINT}', $1, 'sandbox', 'https://b.example/hook', 'x', now())`,
    `INSERT INTO webhook_deliveries (id, tenant_id, environment, endpoint_id, event_id, event_type, status, created_at, updated_at)
     SELECT ${common("whd")}, ${pick("g", ENDPOINT, OTHER_ENDPOINT)}, 'evt_${tag}' || lpad(g::text, 20, '0'), 'proposal.created', 'succeeded',
            ${createdAt("g")}, now() ${series}`,
  ];
  for (const text of statements) {
    const values = text.includes("$2") ? [tenantId, rows] : [tenantId];
    await raw.query(text, values);
  }
  // Statistics and visibility map of a settled table, as in production.
  for (const table of TABLES) await raw.query(`VACUUM ANALYZE ${table}`);
}

/** Runs a list service, and returns its result and the SELECT it sent on `table` (the page query). */
async function capture<T>(table: string, run: () => Promise<T>): Promise<{ result: T; query: SentStatement }> {
  recorder.clear();
  const { sent } = recorder;
  const result = await run();
  const from = new RegExp(`FROM\\s+(?:"public"\\.)?"?${table}"?\\s`, "i");
  const query = sent.find((q) => from.test(q.text) && /ORDER BY/i.test(q.text) && /LIMIT/i.test(q.text));
  if (!query) throw new Error(`No list query on ${table} among:\n${sent.map((q) => q.text).join("\n")}`);
  return { result, query };
}

async function explain(query: SentStatement): Promise<PlanNode[]> {
  await raw.query("SET enable_seqscan = off");
  const res = await raw.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.text}`, query.values);
  return nodes(res.rows[0]!["QUERY PLAN"][0].Plan);
}

/** The page query seeks on `index` in keyset order, reading about one page. */
async function expectSeek(query: SentStatement, index: string) {
  const plan = await explain(query);
  const shown = JSON.stringify(plan.map((n) => [n["Node Type"], n["Index Name"], n["Index Cond"], n["Actual Rows"], n["Rows Removed by Filter"]]));
  const scans = plan.filter((n) => n["Index Name"] !== undefined || n["Node Type"].includes("Scan"));
  expect(scans.map((n) => `${n["Node Type"]} ${n["Index Name"] ?? ""}`), shown).toEqual([expect.stringMatching(new RegExp(`^Index (Only )?Scan( Backward)? ${index}$`))]);
  expect(plan.some((n) => n["Node Type"].includes("Sort")), shown).toBe(false); // the index gives the keyset order
  const scan = scans[0]!;
  expect(scan["Actual Rows"] * scan["Actual Loops"], shown).toBeLessThanOrEqual(LIMIT + 1);
  expect(scan["Rows Removed by Filter"] ?? 0, shown).toBeLessThanOrEqual(2);
  return scan;
}

type ListResult = { data: { id: string }[]; has_more: boolean; next_cursor: string | null };

/** First page and the page after its cursor: the target's rows newest first (or oldest first), each page a seek. */
async function expectPages(table: string, index: string, prefix: string, list: (cursor?: string) => Promise<ListResult>, order: "newest" | "oldest" = "newest") {
  const all = Array.from({ length: TARGET }, (_, i) => id(prefix, i + 1));
  const expected = order === "newest" ? all.reverse() : all;
  const first = await capture(table, () => list());
  expect(first.result.data.map((r) => r.id)).toEqual(expected.slice(0, LIMIT));
  expect(first.result.has_more).toBe(true);
  await expectSeek(first.query, index);

  const second = await capture(table, () => list(first.result.next_cursor!));
  expect(second.result.data.map((r) => r.id)).toEqual(expected.slice(LIMIT, 2 * LIMIT));
  const scan = await expectSeek(second.query, index);
  expect(scan["Index Cond"]).toMatch(/created_at/); // the cursor bounds the index range, not a filter
}

beforeAll(async () => {
  recorder = recordSentStatements();
  raw = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await raw.connect();
  const tenantId = (await newTenant()).tenant.id;
  scope = { tenantId, environment: "sandbox" };
  await seed(tenantId);
}, 120_000);

afterAll(async () => {
  recorder.restore();
  // Leave the shared test database as small as the other suites expect.
  for (const table of TABLES) await raw.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [scope.tenantId]);
  await raw.end();
  await stopListener();
});

describe("selective list filters seek on their own index", () => {
  it("GET /v1/simulations?customer_id= (plain SQL)", async () => {
    await expectPages("simulations", "simulations_tenant_env_customer_id_created_at_id_idx", "sim", (cursor) =>
      listSimulations(scope, ListSimulationsQuery.parse({ customer_id: CUSTOMER, limit: LIMIT, cursor })),
    );
  });

  it("GET /v1/proposals?customer_id=", async () => {
    await expectPages("proposals", "proposals_tenant_env_customer_id_created_at_id_idx", "prp", (cursor) =>
      listProposals(scope, ListProposalsQuery.parse({ customer_id: CUSTOMER, limit: LIMIT, cursor })),
    );
  });

  it("GET /v1/proposals?status=pending_review", async () => {
    await expectPages("proposals", "proposals_tenant_env_status_created_at_id_idx", "prp", (cursor) =>
      listProposals(scope, ListProposalsQuery.parse({ status: "pending_review", limit: LIMIT, cursor })),
    );
  });

  it("the panel review queue: pending_review, oldest first", async () => {
    await expectPages(
      "proposals",
      "proposals_tenant_env_status_created_at_id_idx",
      "prp",
      (cursor) => reviewQueue(scope, ReviewQueueQuery.parse({ status: "pending_review", order: "oldest", limit: LIMIT, cursor })),
      "oldest",
    );
  });

  it("GET /v1/contracts?customer_id=", async () => {
    await expectPages("contracts", "contracts_tenant_env_customer_id_created_at_id_idx", "ctr", (cursor) =>
      listContracts(scope, ListContractsQuery.parse({ customer_id: CUSTOMER, limit: LIMIT, cursor })),
    );
  });

  it("GET /v1/charges?contract_id=", async () => {
    await expectPages("charges", "charges_tenant_env_contract_id_created_at_id_idx", "chg", (cursor) =>
      listCharges(scope, ListChargesQuery.parse({ contract_id: CONTRACT, limit: LIMIT, cursor })),
    );
  });

  it("GET /v1/payments?contract_id=", async () => {
    await expectPages("payments", "payments_tenant_env_contract_id_created_at_id_idx", "pay", (cursor) =>
      listPayments(scope, ListPaymentsQuery.parse({ contract_id: CONTRACT, limit: LIMIT, cursor })),
    );
  });

  it("GET /v1/risk-assessments?customer_id=", async () => {
    await expectPages("risk_assessments", "risk_assessments_tenant_env_customer_id_created_at_id_idx", "rsk", (cursor) =>
      listRiskAssessments(scope, ListRiskAssessmentsQuery.parse({ customer_id: CUSTOMER, limit: LIMIT, cursor })),
    );
  });

  it("GET /v1/payroll/margin-queries?customer_id=", async () => {
    await expectPages("margin_queries", "margin_queries_tenant_env_customer_id_created_at_id_idx", "mgq", (cursor) =>
      listMarginQueries(scope, ListMarginQueriesQuery.parse({ customer_id: CUSTOMER, limit: LIMIT, cursor })),
    );
  });

  it("GET /v1/payroll/margin-reservations?customer_id=", async () => {
    await expectPages("margin_reservations", "margin_reservations_tenant_env_customer_id_created_at_id_idx", "mgr", (cursor) =>
      listReservations(scope, ListReservationsQuery.parse({ customer_id: CUSTOMER, limit: LIMIT, cursor })),
    );
  });

  it("GET /v1/webhook-deliveries?endpoint_id=", async () => {
    await expectPages("webhook_deliveries", "webhook_deliveries_tenant_env_endpoint_id_created_at_id_idx", "whd", (cursor) =>
      listDeliveries(scope, ListDeliveriesQuery.parse({ endpoint_id: ENDPOINT, limit: LIMIT, cursor })),
    );
  });
});
