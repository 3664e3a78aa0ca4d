import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CallResult } from "../helpers/http";

// A database that answers slowly or not at all must not hang the API (tests/platform/database-outage.test.ts stops it
// outright; here it stays up). Every wait is bounded (lib/db/client.ts): a statement waiting on a lock is cancelled by
// its statement_timeout and the request answers 503 "did not answer in time" — retryable, its idempotency key free
// again, nothing written and no outage reported; a database gone silent behind the network (a proxy here that stops
// passing bytes, as a failover or a dropped flow does) fails each statement shortly after, the credential listener's
// heartbeat drops its silent connection (caches off, the outage reported once), health answers 503 — and all is back
// once the network is, with every pool connection: transactions caught by the silence give theirs back
// (lib/db/broken-connections.ts). The app's modules are imported only after DATABASE_URL points at the proxy.

const STATEMENT_TIMEOUT_MS = 500;
const POOL = 2;
const previous = {
  url: process.env.DATABASE_URL,
  timeout: process.env.DATABASE_STATEMENT_TIMEOUT_MS,
  connect: process.env.DATABASE_CONNECT_TIMEOUT_MS,
  pool: process.env.DATABASE_POOL_SIZE,
};
const target = new URL(process.env.DATABASE_URL!);

/** A TCP proxy to PostgreSQL that can go silent: accepted connections and open ones stop passing bytes, no FIN, no RST. */
function silenceableProxy() {
  let silent = false;
  const pairs = new Set<{ client: net.Socket; upstream?: net.Socket }>();
  const server = net.createServer((client) => {
    const pair: { client: net.Socket; upstream?: net.Socket } = { client };
    pairs.add(pair);
    client.on("error", () => undefined);
    client.on("close", () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (silent) return; // accepted, never answered
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    pair.upstream = upstream;
    upstream.on("error", () => client.destroy());
    upstream.on("close", () => client.destroy());
    client.on("data", (data) => void (silent || upstream.write(data)));
    upstream.on("data", (data) => void (silent || client.write(data)));
  });
  return {
    listen: () => new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port))),
    silence: () => {
      silent = true;
    },
    /** The network is back: the flows it dropped are gone for good (their ends find out), new ones pass. */
    restore: () => {
      silent = false;
      for (const pair of pairs) pair.client.destroy();
    },
    close: () => {
      for (const pair of pairs) pair.client.destroy();
      server.close();
    },
  };
}

const proxy = silenceableProxy();
type App = {
  http: typeof import("../helpers/http");
  health: typeof import("@/app/v1/health/route");
  customers: typeof import("@/app/v1/customers/route");
  availability: typeof import("@/lib/db/availability");
  notifications: typeof import("@/lib/db/notifications");
  db: typeof import("@/lib/db/client");
};
let app: App;
let headers: Record<string, string>;
let tenantId: string;

beforeAll(async () => {
  const port = await proxy.listen();
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  process.env.DATABASE_URL = url.toString();
  process.env.DATABASE_STATEMENT_TIMEOUT_MS = String(STATEMENT_TIMEOUT_MS);
  process.env.DATABASE_CONNECT_TIMEOUT_MS = "1000";
  process.env.DATABASE_POOL_SIZE = String(POOL);
  app = {
    http: await import("../helpers/http"),
    health: await import("@/app/v1/health/route"),
    customers: await import("@/app/v1/customers/route"),
    availability: await import("@/lib/db/availability"),
    notifications: await import("@/lib/db/notifications"),
    db: await import("@/lib/db/client"),
  };
  const { newTenant, newKey } = await import("../helpers/factory");
  tenantId = (await newTenant()).tenant.id;
  const { key } = await newKey(tenantId);
  headers = app.http.bearer(key, tenantId);
  await app.notifications.startListener();
}, 60_000);

afterAll(async () => {
  await app?.notifications.stopListener();
  await app?.db.disconnectDb();
  proxy.close();
  const restored = { DATABASE_URL: previous.url, DATABASE_STATEMENT_TIMEOUT_MS: previous.timeout, DATABASE_CONNECT_TIMEOUT_MS: previous.connect, DATABASE_POOL_SIZE: previous.pool };
  for (const [name, value] of Object.entries(restored)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function timed(fn: () => Promise<CallResult>): Promise<CallResult & { ms: number }> {
  const began = performance.now();
  const result = await fn();
  return { ...result, ms: performance.now() - began };
}
const health = () => app.http.call(app.health.GET, { path: "/v1/health", headers });
const listCustomers = () => app.http.call(app.customers.GET, { path: "/v1/customers", headers });
const createCustomer = (requestId: string) =>
  app.http.call(app.customers.POST, { path: "/v1/customers", headers: { ...headers, "x-request-id": requestId }, json: { document: "52998224725", name: "Maria da Silva" } });
const customersOfTenant = async () => {
  const direct = new pg.Client({ connectionString: target.toString() });
  await direct.connect();
  try {
    return (await direct.query("SELECT count(*)::int AS n FROM customers WHERE tenant_id = $1", [tenantId])).rows[0].n as number;
  } finally {
    await direct.end();
  }
};

describe("a database that does not answer in time", () => {
  it("a statement stuck behind a lock is cancelled: 503 within the bound, nothing written, the key free, no outage", async () => {
    expect((await listCustomers()).status).toBe(200);
    const locker = new pg.Client({ connectionString: target.toString() });
    await locker.connect();
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE customers IN ACCESS EXCLUSIVE MODE");
    const requestId = `hang-lock-${Date.now()}`;
    let stuck: CallResult & { ms: number };
    try {
      stuck = await timed(() => createCustomer(requestId));
    } finally {
      await locker.query("ROLLBACK");
      await locker.end();
    }
    expect(stuck.status).toBe(503);
    expect(stuck.ms).toBeLessThan(STATEMENT_TIMEOUT_MS * 2 + 3000);
    expect(stuck.headers.get("retry-after")).toBe("5");
    expect(stuck.body).toEqual({
      type: "urn:credit-platform:problem:service_unavailable",
      title: "The service is temporarily unavailable",
      status: 503,
      detail: "The database did not answer in time; retry with backoff",
      code: "service_unavailable",
      request_id: requestId,
      retryable: true,
    });
    expect(app.availability.databaseDown()).toBe(false);
    expect(await customersOfTenant()).toBe(0);
    // The same request again, the lock gone: it runs (the 503 was not stored).
    const retried = await createCustomer(requestId);
    expect([retried.status, retried.headers.get("idempotent-replayed")]).toEqual([201, null]);
    expect(await customersOfTenant()).toBe(1);
  });

  it("a database gone silent: requests answer 503 within the bound, health says so, and all is back with the network", async () => {
    expect((await health()).status).toBe(200);
    expect(app.notifications.isListening()).toBe(true);
    proxy.silence();

    // A statement on a silent connection fails shortly after its statement timeout would have cancelled it.
    const list = await timed(listCustomers);
    expect(list.status).toBe(503);
    expect(list.ms).toBeLessThan(STATEMENT_TIMEOUT_MS + 2000 + 3000);
    expect(list.body).toMatchObject({ code: "service_unavailable", retryable: true });
    expect(app.availability.databaseDown()).toBe(true);

    // The listener's heartbeat drops its silent connection within about 13 s: cached credentials are no longer trusted.
    for (let i = 0; i < 200 && app.notifications.isListening(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(app.notifications.isListening()).toBe(false);
    const down = await timed(health);
    expect(down.status).toBe(503);
    expect(down.ms).toBeLessThan(STATEMENT_TIMEOUT_MS + 2000 + 3000);
    expect(down.body).toMatchObject({ status: "database_unavailable", checks: { database: "unavailable" }, retryable: true });

    proxy.restore();
    let back: CallResult | undefined;
    for (let i = 0; i < 150 && back?.status !== 200; i++) {
      back = await health();
      if (back.status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(back?.status).toBe(200);
    expect((await listCustomers()).status).toBe(200);
    expect(app.availability.databaseDown()).toBe(false);
  }, 90_000);

  it("transactions caught by the silence give their connections back: after it, the whole pool serves again", async () => {
    await waitFor(async () => (await health()).status === 200);
    const locker = new pg.Client({ connectionString: target.toString() });
    await locker.connect();
    const lockerPid = (await locker.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    await locker.query("BEGIN");
    await locker.query("LOCK TABLE customers IN ACCESS EXCLUSIVE MODE");
    // As many idempotent writes as the pool has connections, each inside its transaction, waiting on the lock: then the
    // network goes silent (PostgreSQL cancels each at its statement timeout, but the answer cannot come back).
    const watcher = new pg.Client({ connectionString: target.toString() }); // straight to PostgreSQL: the pool's are busy, and behind the proxy
    await watcher.connect();
    const pending = Array.from({ length: POOL }, (_, i) => timed(() => createCustomer(`hang-tx-${Date.now()}-${i}`)));
    try {
      await untilLockWaiters(watcher, lockerPid, POOL);
    } catch (err) {
      await watcher.end();
      await locker.query("ROLLBACK"); // never leave the table locked for the tests after this one
      await locker.end();
      throw err;
    }
    proxy.silence();
    await watcher.end();
    const answers = await Promise.all(pending);
    await locker.query("ROLLBACK");
    await locker.end();
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      // One bound, not two: the ROLLBACK is not sent on a connection that already went unanswered.
      expect(answer.ms).toBeLessThan(STATEMENT_TIMEOUT_MS + 2000 + 1500);
    }
    proxy.restore();
    await waitFor(async () => (await health()).status === 200);
    // Every connection of the pool is usable again (without the fix both stayed checked out: every request then 503).
    const lists = await Promise.all(Array.from({ length: POOL * 2 }, () => listCustomers()));
    expect(lists.map((l) => l.status)).toEqual(lists.map(() => 200));
    const written = await app.http.call(app.customers.POST, {
      path: "/v1/customers",
      headers: { ...headers, "x-request-id": `hang-after-${Date.now()}` },
      json: { document: "11144477735", name: "João Souza" },
    });
    expect(written.status).toBe(201);
    expect(app.db.pool().totalCount).toBeLessThanOrEqual(POOL);
  }, 60_000);
});

/** Waits until `count` statements of the test's database wait on a lock the session `holderPid` holds, asking through
 *  `direct` (a client outside any transaction, which would freeze pg_stat_activity): polled every 5 ms, as each wait
 *  lasts only until its statement timeout (10 s at most, then it fails). */
async function untilLockWaiters(direct: pg.Client, holderPid: number, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await direct.query<{ waiting: number }>(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND $1 = ANY(pg_blocking_pids(pid))",
      [holderPid],
    );
    if (rows[0]!.waiting >= count) return;
    if (Date.now() > deadline) throw new Error(`${rows[0]!.waiting} of ${count} statements were waiting on the lock after 10 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function waitFor(ready: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("not ready after 30 s");
}
