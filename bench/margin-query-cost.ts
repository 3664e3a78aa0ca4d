import { randomBytes } from "node:crypto";
import { benchCaller, measure } from "./lib/in-process";

// In-process CPU cost of POST /v1/payroll/margin-queries (sandbox simulator) next to GET /v1/health, and of
// its stages — no HTTP server, no load generator (usable on a shared machine):
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/<migrated db> npx tsx bench/margin-query-cost.ts
//
// CPU milliseconds per request of this Node process (process.cpuUsage), after BENCH_WARMUP_ITERATIONS.

const { db, disconnectDb } = await import("@/lib/db/client");
const { stopListener } = await import("@/lib/db/notifications");
const marginQueries = await import("@/app/v1/payroll/margin-queries/route");
const healthRoute = await import("@/app/v1/health/route");
const { SandboxSimulator } = await import("@/lib/payroll/authority/sandbox-simulator");
const { createMarginQuery } = await import("@/lib/payroll/margin-queries");

const { tenantId, headers, scope } = await benchCaller();
const customer = await db().customer.create({
  data: { id: `cus_${randomBytes(13).toString("hex").toUpperCase()}`, tenantId, environment: "sandbox", kind: "person", document: String(10_000_000_000 + Math.floor(Math.random() * 80_000_000_000)), name: "Bench", payroll: { type: "inss", benefit_number: "2000000010" } },
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
