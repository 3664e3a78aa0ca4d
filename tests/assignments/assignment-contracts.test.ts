import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listAssignmentContracts } from "@/app/v1/assignments/[id]/contracts/route";
import { GET as getAssignment } from "@/app/v1/assignments/[id]/route";
import { POST as createAssignment } from "@/app/v1/assignments/route";
import { GET as listContracts } from "@/app/v1/contracts/route";
import { POST as createSettlement } from "@/app/v1/settlements/route";
import { db } from "@/lib/db/client";
import { newKey } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";
import { problem } from "../helpers/problem";
import { recordSentStatements } from "../helpers/sent-statements";
import { creditTenant, type CreditTenant } from "../credit/flow-helpers";
import { contractsOf } from "../settlements/helpers";

// GET /v1/assignments/{id}/contracts: the contracts GET /v1/assignments/{id} embeds, a page at a time (contract id
// ascending, the embed's order), with the standard list envelope and a cursor bound to the assignment; isolation,
// permission, cursor refusals, and the page query seeking on the primary key.

type Item = { contract_id: string; face_value: number; price: number };
const ASSIGNEE = { name: "Fundo Alfa FIDC", document: "11.222.333/0001-81" };
const page = (t: CreditTenant, id: string, query = "", headers = t.headers, base = t.base) =>
  call(listAssignmentContracts, { base, path: `/v1/assignments/${id}/contracts${query}`, headers, params: { id } });
const offer = async (t: CreditTenant, ids: string[]) => {
  const res = await call(createAssignment, { base: t.base, path: "/v1/assignments", headers: t.headers, json: { assignee: ASSIGNEE, contract_ids: ids, discount_rate: "0.0150" } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; contracts: Item[] };
};
const embedded = async (t: CreditTenant, id: string) => (await call(getAssignment, { base: t.base, path: `/v1/assignments/${id}`, headers: t.headers, params: { id } })).body as { contracts: Item[]; contract_count: number };
const invalidCursor = problem("invalid_cursor", 400, "The pagination cursor is invalid", "The cursor is invalid for this list", {
  errors: [{ param: "cursor", in: "query", message: "The cursor is invalid for this list" }],
});

// Every statement sent, for the plan test (installed before any connection is made: ../helpers/sent-statements.ts).
let recorder: ReturnType<typeof recordSentStatements>;
let raw: pg.Client | undefined;
beforeAll(() => {
  recorder = recordSentStatements();
});
afterAll(async () => {
  recorder.restore();
  await raw?.end();
});

describe("GET /v1/assignments/{id}/contracts", () => {
  it("pages through the embedded contracts: each exactly once, by contract id, has_more/next_cursor; removed ones not listed", async () => {
    const t = await creditTenant();
    const ids = await contractsOf(t, 6);
    const made = await offer(t, ids);
    // One contract leaves the offer (its borrower settles it): neither embedded nor listed.
    const gone = ids[2]!;
    const settled = await call(createSettlement, { base: t.base, path: "/v1/settlements", headers: t.headers, json: { contract_id: gone, type: "full", payment_method: "received" } });
    expect(settled.status, settled.text).toBe(201);

    const { contracts, contract_count } = await embedded(t, made.id);
    const remaining = ids.filter((id) => id !== gone).sort();
    expect(contracts.map((c) => c.contract_id)).toEqual(remaining);
    expect(contract_count).toBe(5);
    // The same objects as when the assignment was priced (the embed of its creation), less the one that left.
    expect(contracts).toEqual(made.contracts.filter((c) => c.contract_id !== gone));

    const first = await page(t, made.id, "?limit=2");
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ object: "list", data: contracts.slice(0, 2), has_more: true, next_cursor: expect.any(String) });
    const second = await page(t, made.id, `?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body).toEqual({ object: "list", data: contracts.slice(2, 4), has_more: true, next_cursor: expect.any(String) });
    const third = await page(t, made.id, `?limit=2&cursor=${encodeURIComponent(second.body.next_cursor)}`);
    expect(third.body).toEqual({ object: "list", data: contracts.slice(4), has_more: false, next_cursor: null });
    const seen = [...first.body.data, ...second.body.data, ...third.body.data].map((c: Item) => c.contract_id);
    expect(seen).toEqual(remaining);
    expect(new Set(seen).size).toBe(seen.length);

    // A limit of exactly the count: one page, no cursor; the default limit (20) the same.
    expect((await page(t, made.id, "?limit=5")).body).toEqual({ object: "list", data: contracts, has_more: false, next_cursor: null });
    expect((await page(t, made.id)).body).toEqual({ object: "list", data: contracts, has_more: false, next_cursor: null });
    // The list's own query rules: limit 1–100.
    const tooBig = await page(t, made.id, "?limit=101");
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.errors).toEqual([{ param: "limit", in: "query", message: expect.any(String) }]);

    // GET /v1/assignments/{id} still embeds every contract, unchanged by the list.
    expect((await embedded(t, made.id)).contracts).toEqual(contracts);
  });

  it("another tenant's or environment's assignment is 404; without assignments:read 403; a malformed id 400", async () => {
    const t = await creditTenant();
    const ids = await contractsOf(t, 1);
    const made = await offer(t, ids);
    const notFound = problem("not_found", 404, "The resource was not found", "Assignment not found");

    const other = await creditTenant();
    const foreign = await page(other, made.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(notFound);

    const live = bearer((await newKey(t.tenant.id, "production", ["read", "write"])).key, t.tenant.id);
    const production = await page(t, made.id, "", live, PRODUCTION);
    expect(production.status).toBe(404);
    expect(production.body).toEqual(notFound);

    const noRead = bearer((await newKey(t.tenant.id, "sandbox", ["contracts:read", "assignments:write"])).key, t.tenant.id);
    const forbidden = await page(t, made.id, "", noRead);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual(problem("insufficient_permissions", 403, "The credential lacks the required permission", "This operation requires the assignments:read permission"));

    const reader = bearer((await newKey(t.tenant.id, "sandbox", ["assignments:read"])).key, t.tenant.id);
    expect((await page(t, made.id, "", reader)).body).toEqual({ object: "list", data: made.contracts, has_more: false, next_cursor: null });

    const unknown = await page(t, "asg_01JD0000000000000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(notFound);
    const malformed = await page(t, "asg_nope");
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ param: "id", in: "path", message: "Must be a assignment id (asg_…)" }]);
  });

  it("refuses a bad cursor: garbage, edited, another list's, another assignment's, another tenant's (400 invalid_cursor)", async () => {
    const t = await creditTenant();
    const ids = await contractsOf(t, 4);
    const a = await offer(t, ids.slice(0, 2));
    const b = await offer(t, ids.slice(2));
    const cursorOf = async (tenant: CreditTenant, id: string) => (await page(tenant, id, "?limit=1")).body.next_cursor as string;
    const ofA = await cursorOf(t, a.id);
    expect(ofA).toEqual(expect.any(String));

    const contractsCursor = (await call(listContracts, { base: t.base, path: "/v1/contracts?limit=1", headers: t.headers })).body.next_cursor as string;
    expect(contractsCursor).toEqual(expect.any(String));
    const other = await creditTenant();
    const otherIds = await contractsOf(other, 2);
    const foreignCursor = await cursorOf(other, (await offer(other, otherIds)).id);
    const [payload, signature] = ofA.split(".");
    const edited = `${Buffer.from(Buffer.from(payload!, "base64url").toString("utf8").replace(/"ctr_[^"]+"/, `"${ids[3]}"`)).toString("base64url")}.${signature}`;

    for (const cursor of ["garbage", `${ofA}x`, edited, contractsCursor, foreignCursor]) {
      const res = await page(t, a.id, `?limit=1&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(400);
      expect(res.body).toEqual(invalidCursor);
    }
    // A's cursor on B's list is not a position in B: refused. On A's own list it works.
    const crossed = await page(t, b.id, `?limit=1&cursor=${encodeURIComponent(ofA)}`);
    expect(crossed.status).toBe(400);
    expect(crossed.body).toEqual(invalidCursor);
    expect((await page(t, a.id, `?limit=1&cursor=${encodeURIComponent(ofA)}`)).body).toEqual({ object: "list", data: a.contracts.slice(1), has_more: false, next_cursor: null });
  });

  it("the page query seeks on the primary key (assignment_id, contract_id) in list order, with no sort", async () => {
    const t = await creditTenant();
    const ids = await contractsOf(t, 3);
    const made = await offer(t, ids);
    // Noise: 2,000 rows of another (canceled) assignment of the same tenant and environment, around the target's ids.
    const noise = "asg_01JD0000000000000000NOISE";
    await db().$executeRaw`INSERT INTO assignment_contracts (assignment_id, contract_id, tenant_id, environment, face_value, price, live)
      SELECT ${noise}, 'ctr_' || lpad(g::text, 26, '0'), ${t.tenant.id}, 'sandbox', 100, 100, false FROM generate_series(1, 2000) AS g`;
    raw = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await raw.connect();
    await raw.query("VACUUM ANALYZE assignment_contracts");

    recorder.clear();
    const { sent } = recorder;
    const first = await page(t, made.id, "?limit=1");
    const second = await page(t, made.id, `?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body.data).toEqual([made.contracts[1]]);
    const queries = sent.filter((q) => /FROM\s+"public"\."assignment_contracts"/i.test(q.text) && /ORDER BY/i.test(q.text));
    expect(queries, JSON.stringify(sent.map((q) => q.text))).toHaveLength(2);
    type PlanNode = { "Node Type": string; "Index Name"?: string; "Index Cond"?: string; Plans?: PlanNode[] };
    const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];
    await raw.query("SET enable_seqscan = off");
    for (const [i, query] of queries.entries()) {
      const res = await raw.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${query.text}`, query.values);
      const plan = nodes(res.rows[0]!["QUERY PLAN"][0].Plan);
      const shown = JSON.stringify(plan.map((n) => [n["Node Type"], n["Index Name"], n["Index Cond"]]));
      const scans = plan.filter((n) => n["Node Type"].includes("Scan"));
      expect(scans.map((n) => `${n["Node Type"]} ${n["Index Name"]}`), shown).toEqual(["Index Scan assignment_contracts_pkey"]);
      expect(plan.some((n) => n["Node Type"].includes("Sort")), shown).toBe(false);
      expect(scans[0]!["Index Cond"], shown).toMatch(i === 0 ? /assignment_id/ : /assignment_id.*contract_id|contract_id.*assignment_id/);
    }
  });
});
