import { randomBytes } from "node:crypto";

// In-process CPU cost of GET /v1/customers?limit=100 next to GET /v1/health, and of its stages — no HTTP
// server, no load generator (usable on a shared machine):
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/<migrated db> npx tsx bench/list-cost.ts
//
// CPU milliseconds per request of this Node process (process.cpuUsage), after BENCH_WARMUP_ITERATIONS.

process.env.RATE_LIMIT_SANDBOX_PER_MINUTE ??= "100000000";
process.env.AUTH_JWT_SECRET ??= randomBytes(32).toString("hex");
process.env.LOG_LEVEL ??= "silent";

const iterations = Number(process.env.BENCH_ITERATIONS || 300);
const warmup = Number(process.env.BENCH_WARMUP_ITERATIONS || 100);

const { createApiKey } = await import("@/lib/auth/api-keys");
const { createTenant } = await import("@/lib/tenants/tenants");
const { db, disconnectDb, pool } = await import("@/lib/db/client");
const { stopListener } = await import("@/lib/db/notifications");
const customersRoute = await import("@/app/v1/customers/route");
const healthRoute = await import("@/app/v1/health/route");
const { listCustomers } = await import("@/lib/customers/list-customers");
const { INSERT_CUSTOMERS } = await import("./seed-sql");

async function measure(name: string, fn: () => unknown | Promise<unknown>): Promise<void> {
  for (let i = 0; i < warmup; i += 1) await fn();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < iterations; i += 1) await fn();
  const c = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  console.log(`${name.padEnd(56)} ${((c.user + c.system) / 1000 / iterations).toFixed(3).padStart(7)} ms CPU  ${(wall / iterations).toFixed(3).padStart(7)} ms wall`);
}

const slug = `bench-${randomBytes(4).toString("hex")}`;
const actor = { type: "cli", label: "bench" } as const;
const { tenant } = await createTenant({ slug, name: slug, owner: { email: `owner@${slug}.test`, name: "Owner", password: "correct horse battery" } }, actor);
const { key } = await createApiKey({ tenantId: tenant.id, environment: "sandbox", name: "bench", permissions: ["read", "write"], actor });
const headers = { authorization: `Bearer ${key}`, "x-tenant-id": tenant.id };
const scope = { tenantId: tenant.id, environment: "sandbox" as const };
await db().$executeRawUnsafe(INSERT_CUSTOMERS, tenant.id, 1000);
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
    pool().query(`SELECT * FROM customers WHERE tenant_id = $1 AND environment = 'sandbox' ORDER BY created_at DESC, id DESC LIMIT 101`, [tenant.id]),
  );
} finally {
  await db().customer.deleteMany({ where: { tenantId: tenant.id } });
  await stopListener().catch(() => undefined);
  await disconnectDb();
}
