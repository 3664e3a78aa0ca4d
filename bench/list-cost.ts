import { benchCaller, measure } from "./lib/in-process";

// In-process CPU cost of GET /v1/customers?limit=100 next to GET /v1/health, and of its stages — no HTTP
// server, no load generator (usable on a shared machine):
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/<migrated db> npx tsx bench/list-cost.ts
//
// CPU milliseconds per request of this Node process (process.cpuUsage), after BENCH_WARMUP_ITERATIONS.

const { db, disconnectDb, pool } = await import("@/lib/db/client");
const { stopListener } = await import("@/lib/db/notifications");
const customersRoute = await import("@/app/v1/customers/route");
const healthRoute = await import("@/app/v1/health/route");
const { listCustomers } = await import("@/lib/customers/list-customers");
const { INSERT_CUSTOMERS } = await import("./seed-sql");

const { tenantId, headers, scope } = await benchCaller();
await db().$executeRawUnsafe(INSERT_CUSTOMERS, tenantId, 1000);
const query = { limit: 100 } as Parameters<typeof listCustomers>[1];

try {
  await measure("GET /v1/health (whole handler)", async () => {
    const res = await healthRoute.GET(new Request("http://localhost:3000/v1/health", { headers }), { params: Promise.resolve({}) });
    await res.text();
  });
  await measure("GET /v1/customers?limit=100 (whole handler)", async () => {
    const res = await customersRoute.GET(new Request("http://localhost:3000/v1/customers?limit=100", { headers }), { params: Promise.resolve({}) });
    if (res.status !== 200) throw new Error(`answered ${res.status}: ${await res.text()}`);
    await res.text();
  });
  await measure("  listCustomers (service)", () => listCustomers(scope, query));
  await measure("  for comparison: every column of the page parsed by pg", () =>
    pool().query(`SELECT * FROM customers WHERE tenant_id = $1 AND environment = 'sandbox' ORDER BY created_at DESC, id DESC LIMIT 101`, [tenantId]),
  );
} finally {
  await db().customer.deleteMany({ where: { tenantId } });
  await stopListener().catch(() => undefined);
  await disconnectDb();
}
