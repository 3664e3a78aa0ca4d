import { randomBytes } from "node:crypto";

// In-process CPU cost of POST /v1/payroll/margin-queries (sandbox simulator) next to GET /v1/health, and of
// its stages — no HTTP server, no load generator (usable on a shared machine):
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/<migrated db> npx tsx bench/margin-query-cost.ts
//
// CPU milliseconds per request of this Node process (process.cpuUsage), after BENCH_WARMUP_ITERATIONS.

process.env.RATE_LIMIT_SANDBOX_PER_MINUTE ??= "100000000";
process.env.AUTH_JWT_SECRET ??= randomBytes(32).toString("hex");
process.env.LOG_LEVEL ??= "silent";

const iterations = Number(process.env.BENCH_ITERATIONS || 300);
const warmup = Number(process.env.BENCH_WARMUP_ITERATIONS || 100);

const { createApiKey } = await import("@/lib/auth/api-keys");
const { createTenant } = await import("@/lib/tenants/tenants");
const { db, disconnectDb } = await import("@/lib/db/client");
const { stopListener } = await import("@/lib/db/notifications");
const marginQueries = await import("@/app/v1/payroll/margin-queries/route");
const healthRoute = await import("@/app/v1/health/route");
const { SandboxSimulator } = await import("@/lib/payroll/authority/sandbox-simulator");
const { createMarginQuery } = await import("@/lib/payroll/margin-queries");

async function measure(name: string, fn: () => unknown | Promise<unknown>): Promise<void> {
  for (let i = 0; i < warmup; i += 1) await fn();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < iterations; i += 1) await fn();
  const c = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  console.log(`${name.padEnd(56)} ${((c.user + c.system) / 1000 / iterations).toFixed(2).padStart(7)} ms CPU  ${(wall / iterations).toFixed(2).padStart(7)} ms wall`);
}

const slug = `bench-${randomBytes(4).toString("hex")}`;
const actor = { type: "cli", label: "bench" } as const;
const { tenant } = await createTenant({ slug, name: slug, owner: { email: `owner@${slug}.test`, name: "Owner", password: "correct horse battery" } }, actor);
const { key } = await createApiKey({ tenantId: tenant.id, environment: "sandbox", name: "bench", permissions: ["read", "write"], actor });
const headers = { authorization: `Bearer ${key}`, "x-tenant-id": tenant.id };
const scope = { tenantId: tenant.id, environment: "sandbox" as const };
const customer = await db().customer.create({
  data: { id: `cus_${randomBytes(13).toString("hex").toUpperCase()}`, tenantId: tenant.id, environment: "sandbox", kind: "person", document: String(10_000_000_000 + Math.floor(Math.random() * 80_000_000_000)), name: "Bench", payroll: { type: "inss", benefit_number: "2000000010" } },
});
const body = JSON.stringify({ customer_id: customer.id });

try {
  await measure("GET /v1/health (whole handler)", async () => {
    const res = await healthRoute.GET(new Request("http://localhost:3000/v1/health", { headers }), { params: Promise.resolve({}) });
    await res.text();
  });
  await measure("POST /v1/payroll/margin-queries (whole handler)", async () => {
    const res = await marginQueries.POST(
      new Request("http://localhost:3000/v1/payroll/margin-queries", { method: "POST", headers: { ...headers, "content-type": "application/json" }, body }),
      { params: Promise.resolve({}) },
    );
    if (res.status !== 201) throw new Error(`answered ${res.status}: ${await res.text()}`);
    await res.text();
  });
  await measure("  createMarginQuery (service)", () => createMarginQuery(scope, { customer_id: customer.id }));
  const simulator = new SandboxSimulator();
  await measure("    the simulator's answer", () => simulator.queryMargin({ document: "52998224725", source: { kind: "inss", benefitNumber: "2000000010" }, requestId: "x" }));
  await measure("    customer findFirst", () => db().customer.findFirst({ where: { id: customer.id, ...scope } }));
  const evt = () => `evt_${randomBytes(13).toString("hex")}`;
  await measure("    customer $queryRaw", () => db().$queryRaw`SELECT * FROM customers WHERE id = ${customer.id} AND tenant_id = ${scope.tenantId} AND environment = 'sandbox'`);
  await measure("    one $executeRaw statement inserting 2 rows", () =>
    db().$executeRaw`WITH a AS (INSERT INTO outbox_events (id, tenant_id, environment, type, payload) VALUES (${evt()}, ${scope.tenantId}, 'sandbox', 'x', ${JSON.stringify({ a: 1 })}::jsonb) RETURNING id)
      INSERT INTO outbox_events (id, tenant_id, environment, type, payload) SELECT ${evt()}, ${scope.tenantId}, 'sandbox', 'y', '{}'::jsonb`,
  );
  await measure("    transaction with 2 creates", () =>
    db().$transaction(async (tx) => {
      await tx.outboxEvent.create({ data: { id: evt(), tenantId: scope.tenantId, environment: "sandbox", type: "x", payload: { a: 1 } } });
      await tx.outboxEvent.create({ data: { id: evt(), tenantId: scope.tenantId, environment: "sandbox", type: "y", payload: {} } });
    }),
  );
} finally {
  await stopListener();
  await disconnectDb();
}
