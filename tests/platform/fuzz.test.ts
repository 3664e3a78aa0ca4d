import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openapi/document";
import { RateLimits, setRateLimitsForTests } from "@/lib/api/rate-limit";
import type { RouteHandler } from "@/lib/api/route";
import { ALL_PERMISSIONS } from "@/lib/auth/permissions";
import { stopListener } from "@/lib/db/notifications";
import { newKey, newTenant } from "../helpers/factory";
import { SANDBOX } from "../helpers/http";

// Property-based fuzzing of every /v1 operation in the OpenAPI document: hostile path ids, query values, JSON
// bodies (documented field names with values of every wrong kind, NUL and lone surrogates, huge and negative
// numbers, out-of-range dates, deep nesting, unknown keys, broken JSON) and hostile headers, sent with a valid
// credential holding every permission. No answer may be a 5xx; every error is problem+json (RFC 6749 JSON on the
// token endpoint) without internals; and when no request succeeded, no tenant table changed (idempotency
// records excepted: a 4xx outcome under an X-Request-Id is stored on purpose, for its replay).
// FUZZ_RUNS sets the total number of requests (default 10,000), FUZZ_SEED the seed.

const TOTAL = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const APP_V1 = path.resolve(import.meta.dirname, "../../app/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const STACK = /\bat [\w$.<>]+ \(|\.tsx?:\d+|node_modules|PrismaClient|prisma\.|Invalid `/;
// Every table with a tenant_id (read from the catalog, so new modules are covered), less the records of the
// requests themselves: stored idempotent answers (4xx are stored too) and settlement batches, whose envelope is
// recorded even when every item fails (each failure is the batch's result, not an effect).
const REQUEST_RECORDS = ["idempotency_records", "settlement_batches"];

type Operation = { method: string; path: string; handler: RouteHandler; query: string[]; body: string[] };

function routeFiles(dir: string, prefix = ""): string[] {
  // Sorted: each operation's seed is SEED + its index, so the order must not depend on the filesystem's.
  const entries = readdirSync(dir).sort();
  return entries.flatMap((entry) => {
    const full = path.join(dir, entry);
    const rel = prefix ? `${prefix}/${entry}` : entry;
    if (statSync(full).isDirectory()) return routeFiles(full, rel);
    return entry === "route.ts" && rel !== "[...path]/route.ts" ? [rel] : [];
  });
}

type Doc = {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, { schema: unknown }> } }>>;
  components: { schemas: Record<string, unknown> };
};

/** Property names of a request body schema, following $ref and allOf/oneOf/anyOf one level deep. */
function bodyFields(doc: Doc, schema: unknown, depth = 0): string[] {
  if (!schema || typeof schema !== "object" || depth > 3) return [];
  const s = schema as { $ref?: string; properties?: Record<string, unknown>; allOf?: unknown[]; oneOf?: unknown[]; anyOf?: unknown[] };
  if (s.$ref) return bodyFields(doc, doc.components.schemas[s.$ref.split("/").pop()!], depth + 1);
  return [...Object.keys(s.properties ?? {}), ...[...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])].flatMap((x) => bodyFields(doc, x, depth + 1))];
}

async function operations(): Promise<Operation[]> {
  const doc = openApiDocument() as unknown as Doc;
  const ops: Operation[] = [];
  for (const file of routeFiles(APP_V1)) {
    const mod = (await import(path.join(APP_V1, file))) as Record<string, RouteHandler | undefined>;
    for (const method of METHODS) {
      const handler = mod[method];
      if (!handler) continue;
      const entry = doc.paths[handler.operation.path]?.[method.toLowerCase()];
      const content = entry?.requestBody?.content ?? {};
      const schema = Object.values(content)[0]?.schema;
      ops.push({
        method,
        path: handler.operation.path,
        handler,
        query: (entry?.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
        body: [...new Set(bodyFields(doc, schema))],
      });
    }
  }
  return ops;
}

// Values of every kind a field should not get, and some it might.
const hostileString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }), // any UTF-16 code unit: lone surrogates included
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "x\udfffy", "", " ", "null", "-1", "1e309", "NaN", "0x10", "../../etc/passwd", "%00", "' OR 1=1 --"),
  fc.constantFrom("0000-01-01", "1500-02-29", "1582-10-10", "9999-12-31", "10000-01-01", "2026-02-30", "2199-12-31", "1900-01-01", "2026-13-01"),
  fc.constantFrom("cus_00000000000000000000000000", "sim_01JD0000000000000000000000", "prp_01JD0000000000000000000000", "ctr_01JD0000000000000000000000"),
  fc.constantFrom("inss_payroll", "private_payroll", "personal_loan", "price", "sac", "following", "preceding", "inss", "private"),
  fc.string({ minLength: 1000, maxLength: 3000 }),
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1, 96, 97, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0.1, 100_00, 1_000_000_000_00),
);
const leaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const value = fc.oneof(
  { weight: 6, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, leaf, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
);

const deepNesting = fc.integer({ min: 50, max: 3000 }).map((n) => "[".repeat(n) + "]".repeat(n));

function bodyArbitrary(fields: string[]) {
  const named = fields.length > 0 ? fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: fields.length }) : fc.constant({});
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(named, fc.dictionary(hostileString, leaf, { maxKeys: 2 }), fc.boolean()).map(([a, extra, withExtra]) => JSON.stringify(withExtra ? { ...a, ...extra } : a)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.oneof(fc.string({ unit: "binary", maxLength: 60 }), deepNesting, fc.constantFrom("{", '{"a":', "\u0000", '{"a":"\\ud800"}', "[]", "null")) },
  );
}

function requestArbitrary(op: Operation) {
  const ids = op.path.includes("{id}") ? hostileString : fc.constant(undefined);
  const query = fc.dictionary(op.query.length > 0 ? fc.oneof(fc.constantFrom(...op.query), hostileString) : hostileString, fc.oneof(hostileString, hostileNumber.map(String)), {
    maxKeys: 3,
  });
  const headers = fc.record(
    {
      requestId: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostileString }, { weight: 1, arbitrary: fc.uuid() }),
      tenant: fc.oneof({ weight: 8, arbitrary: fc.constant("own") }, { weight: 1, arbitrary: hostileString }),
      contentType: fc.oneof({ weight: 8, arbitrary: fc.constant("json") }, { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/x-www-form-urlencoded", "", "application/json; charset=latin1") }),
    },
    { requiredKeys: ["tenant", "contentType"] },
  );
  const hasBody = op.method === "POST" || op.method === "PATCH" || op.method === "PUT";
  const form = fc.dictionary(fc.oneof(fc.constantFrom("grant_type", "client_id", "client_secret", "scope", "refresh_token"), hostileString), hostileString, { maxKeys: 5 });
  const body = !hasBody ? fc.constant(undefined) : op.path === "/v1/auth/token" ? form.map((f) => new URLSearchParams(f).toString()) : bodyArbitrary(op.body);
  return fc.record({ id: ids, query, headers, body });
}

let pool: pg.Client;
let tenantId: string;
let key: string;

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const { rows: tables } = await pool.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() AND column_name = 'tenant_id' ORDER BY table_name",
  );
  for (const { table_name: table } of tables) {
    if (REQUEST_RECORDS.includes(table)) continue;
    const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = $1`, [tenantId]);
    out[table] = Number(rows[0]!.n);
  }
  return out;
}

beforeAll(async () => {
  pool = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await pool.connect();
  tenantId = (await newTenant()).tenant.id;
  ({ key } = await newKey(tenantId, "sandbox", [...ALL_PERMISSIONS]));
  // Thousands of requests a minute: the limiter still runs, but never answers 429.
  setRateLimitsForTests(new RateLimits({ kind: "memory" }, { sandbox: 1_000_000_000, production: 1_000_000_000 }, "rl-fuzz"));
});

afterAll(async () => {
  setRateLimitsForTests(undefined);
  await pool.end();
  await stopListener();
});

describe("fuzzing every /v1 operation", () => {
  it(`answers ${TOTAL.toLocaleString("en")} hostile requests without a 5xx, in the one error shape, changing nothing`, async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThanOrEqual(20);
    const before = await counts();
    // A few generated inputs cannot be sent at all (a header value with a newline) and are skipped: 6% more runs.
    const perOperation = Math.ceil((TOTAL / ops.length) * 1.06);
    let sent = 0;
    let succeededWrites = 0;
    const statuses = new Map<number, number>();

    for (const [index, op] of ops.entries()) {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(op), async (input) => {
          const id = input.id;
          // A URL carries UTF-8: a lone surrogate cannot be sent in one (the handler still gets the raw id as its param).
          const pathname = op.path.replace("{id}", encodeURIComponent((id ?? "").toWellFormed()));
          const url = new URL(`${SANDBOX}${pathname}`);
          for (const [k, v] of Object.entries(input.query)) url.searchParams.append(k.toWellFormed(), v.toWellFormed());
          const headers = new Headers({ authorization: `Bearer ${key}` });
          const tenant = input.headers.tenant === "own" ? tenantId : input.headers.tenant;
          try {
            headers.set("x-tenant-id", tenant);
            if (input.headers.requestId !== undefined) headers.set("x-request-id", input.headers.requestId);
          } catch {
            return; // not a header value fetch can even send (e.g. a newline): no server could receive it either
          }
          const isForm = op.path === "/v1/auth/token";
          headers.set("content-type", input.headers.contentType === "json" ? (isForm ? "application/x-www-form-urlencoded" : "application/json") : input.headers.contentType);
          const request = new Request(url, { method: op.method, headers, body: input.body });
          const response = await op.handler(request, { params: Promise.resolve(id === undefined ? {} : { id }) });
          const text = await response.text();
          sent += 1;
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const where = `${op.method} ${pathname} → ${response.status}: ${text.slice(0, 300)}`;
          expect(response.status, where).toBeLessThan(500);
          expect(text, where).not.toMatch(STACK);
          if (response.status >= 400) {
            const type = response.headers.get("content-type");
            expect(type, where).toBe(isForm ? "application/json" : "application/problem+json");
            const body = JSON.parse(text) as { code?: unknown; status?: unknown; title?: unknown };
            expect(body.status, where).toBe(response.status);
            expect(typeof body.code, where).toBe("string");
            expect(typeof body.title, where).toBe("string");
          } else if (op.method !== "GET") {
            // A batch whose every item failed applied nothing (its results say why).
            const batch = JSON.parse(text) as { object?: string; created?: number };
            if (!(batch.object === "settlement_batch" && batch.created === 0)) succeededWrites += 1;
          }
        }),
        { seed: SEED + index, numRuns: perOperation, endOnFailure: true },
      );
    }

    if (succeededWrites === 0) expect(await counts()).toEqual(before);
    console.log(
      `fuzz: ${sent.toLocaleString("en")} requests over ${ops.length} operations (seed ${SEED}); ` +
        `statuses ${[...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(" ")}; ${succeededWrites} writes succeeded`,
    );
    expect(sent).toBeGreaterThanOrEqual(TOTAL);
  }, 900_000);
});
