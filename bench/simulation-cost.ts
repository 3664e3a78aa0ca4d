import { readdirSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";

// In-process CPU cost of POST /v1/simulations, stage by stage, next to GET /v1/health — no HTTP server,
// no load generator (usable on a shared machine). Calls the real route handlers with real Requests in a
// loop against the database named by DATABASE_URL (migrated), then each stage on its own:
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/simspeed_dev npx tsx bench/simulation-cost.ts
//   BENCH_ITERATIONS=500 …            (default 300 measured iterations per figure, after 100 warm-up ones)
//
// Figures are CPU milliseconds per request of this Node process (process.cpuUsage: user + system), and
// the CPU the PostgreSQL backends of that database spent (from /proc, when the server runs on this
// machine). `npm run bench` measures throughput; this says where one request's time goes.

process.env.RATE_LIMIT_SANDBOX_PER_MINUTE ??= "100000000";
process.env.AUTH_JWT_SECRET ??= randomBytes(32).toString("hex");
process.env.LOG_LEVEL ??= "silent";

const iterations = Number(process.env.BENCH_ITERATIONS || 300);
const warmup = Number(process.env.BENCH_WARMUP_ITERATIONS || 100);

const { createApiKey } = await import("@/lib/auth/api-keys");
const { createTenant } = await import("@/lib/tenants/tenants");
const { db, disconnectDb } = await import("@/lib/db/client");
const { stopListener } = await import("@/lib/db/notifications");
const simulations = await import("@/app/v1/simulations/route");
const healthRoute = await import("@/app/v1/health/route");
const { CreateSimulationBody } = await import("@/lib/simulations/schemas");
const { computeSimulation } = await import("@/lib/simulations/compute");
const { createSimulation } = await import("@/lib/simulations/create-simulation");
const { toSimulationResponse } = await import("@/lib/simulations/serialize");
const finance = await import("@/lib/finance");
const { IOF_RATES } = await import("@/lib/products");

const BODY: Record<string, unknown> = {
  product: "inss_payroll",
  amortization: "price",
  term: 96,
  monthly_rate: "0.0180",
  requested_amount: 1_500_000,
  iof_financed: true,
  disbursement_date: "2026-01-15",
  first_due_date: "2026-02-15",
};

// CPU seconds (utime + stime) of the PostgreSQL backends serving `database`, read from /proc.
function postgresCpuMs(database: string): number {
  const tick = 100; // USER_HZ on Linux
  let total = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!cmd.startsWith("postgres: ") || !cmd.includes(` ${database} `)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += (Number(fields[11]) + Number(fields[12])) * (1000 / tick);
    } catch {
      // process gone
    }
  }
  return total;
}

const database = new URL(process.env.DATABASE_URL ?? "postgresql://x@y/none").pathname.slice(1);

type Figure = { name: string; cpuMs: number; pgMs: number; wallMs: number };
const figures: Figure[] = [];

const only = process.env.BENCH_ONLY; // a substring of the figures to run (e.g. "whole handler" under --cpu-prof)

async function measure(name: string, fn: () => unknown | Promise<unknown>, n = iterations): Promise<Figure> {
  if (only && !name.includes(only)) return { name, cpuMs: Number.NaN, pgMs: Number.NaN, wallMs: Number.NaN };
  for (let i = 0; i < warmup; i += 1) await fn();
  const pg0 = postgresCpuMs(database);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i += 1) await fn();
  const c = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  const figure = { name, cpuMs: (c.user + c.system) / 1000 / n, pgMs: (postgresCpuMs(database) - pg0) / n, wallMs: wall / n };
  figures.push(figure);
  return figure;
}

const slug = `bench-${randomBytes(4).toString("hex")}`;
const actor = { type: "cli", label: "bench" } as const;
const { tenant } = await createTenant({ slug, name: slug, owner: { email: `owner@${slug}.test`, name: "Owner", password: "correct horse battery" } }, actor);
const { key } = await createApiKey({ tenantId: tenant.id, environment: "sandbox", name: "bench", permissions: ["read", "write"], actor });
const headers = { authorization: `Bearer ${key}`, "x-tenant-id": tenant.id };
const scope = { tenantId: tenant.id, environment: "sandbox" as const };
// inss_payroll needs a customer with an INSS payroll link.
const customer = await db().customer.create({
  data: {
    id: `cus_${randomBytes(13).toString("hex").toUpperCase()}`,
    ...scope,
    kind: "person",
    document: String(10_000_000_000 + Math.floor(Math.random() * 80_000_000_000)),
    name: "Bench",
    payroll: { type: "inss", benefit_number: "2000000010" },
  },
});
Object.assign(BODY, { customer_id: customer.id });
const bodyText = JSON.stringify(BODY);

const post = async () => {
  const res = await simulations.POST(
    new Request("http://localhost:3000/v1/simulations", { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: bodyText }),
    { params: Promise.resolve({}) },
  );
  if (res.status !== 201) throw new Error(`POST /v1/simulations answered ${res.status}: ${await res.text()}`);
  await res.text();
};
const health = async () => {
  const res = await healthRoute.GET(new Request("http://localhost:3000/v1/health", { headers }), { params: Promise.resolve({}) });
  if (res.status !== 200) throw new Error(`GET /v1/health answered ${res.status}`);
  await res.text();
};

try {
  const parsed = CreateSimulationBody.parse(BODY);
  const terms = {
    product: parsed.product,
    amount: { kind: "requested" as const, value: parsed.requested_amount! },
    term: parsed.term,
    monthlyRate: "0.018",
    amortization: parsed.amortization,
    disbursementDate: parsed.disbursement_date!,
    firstDueDate: parsed.first_due_date,
    dueDateRule: parsed.due_date_rule,
    borrowerKind: "PF" as const,
    iofFinanced: parsed.iof_financed,
    fees: parsed.fees,
  };
  const result = computeSimulation(terms);
  const row = { id: "sim_01JD0000000000000000000000", customerId: null, environment: "sandbox" as const, createdAt: new Date() };
  const scheduleInput = { principal: result.principal, monthlyRate: "0.018", installments: 96, disbursementDate: "2026-01-15", firstDueDate: "2026-02-15" };
  const schedule = finance.buildSchedule("price", scheduleInput);
  const cetInput = { disbursementDate: "2026-01-15", released: result.released_amount, flows: finance.cashFlowsFromSchedule(result.schedule) };

  const health1 = await measure("GET /v1/health (whole handler)", health);
  const post1 = await measure("POST /v1/simulations (whole handler)", post);
  await measure("  createSimulation (service: compute + serialize + insert)", () => createSimulation(scope, parsed));
  await measure("  zod: CreateSimulationBody.safeParse", () => CreateSimulationBody.safeParse(BODY));
  await measure("  computeSimulation", () => computeSimulation(terms));
  await measure("    one Price schedule (96 rows)", () => finance.buildSchedule("price", scheduleInput));
  await measure("    one IOF of a schedule", () =>
    finance.computeIof({ borrower: "PF", principal: result.principal, disbursementDate: "2026-01-15", installments: schedule }, IOF_RATES),
  );
  await measure("    computeCet", () => finance.computeCet(cetInput));
  await measure("    annualFromMonthly", () => finance.annualFromMonthly("0.018"));
  await measure("  toSimulationResponse + JSON.stringify", () => JSON.stringify(toSimulationResponse(row, result)));
  await measure("  JSON.stringify(result) (the stored JSON)", () => JSON.stringify(result));

  const width = Math.max(...figures.map((f) => f.name.length));
  console.log(`${iterations} iterations per figure after ${warmup} warm-up; node ${process.version}; database ${database}`);
  console.log(`${"".padEnd(width)}  node CPU ms  postgres CPU ms  wall ms`);
  for (const f of figures.filter((f) => Number.isFinite(f.cpuMs))) console.log(`${f.name.padEnd(width)}  ${f.cpuMs.toFixed(3).padStart(11)}  ${f.pgMs.toFixed(3).padStart(15)}  ${f.wallMs.toFixed(3).padStart(7)}`);
  const own = post1.cpuMs - health1.cpuMs;
  console.log(`simulation's own node CPU (POST − health): ${own.toFixed(3)} ms`);
  console.log(
    `estimated simulation/health at equal CPU per request (node + postgres): ${((health1.cpuMs + health1.pgMs) / (post1.cpuMs + post1.pgMs)).toFixed(2)}  (goal ≥ 0.8)`,
  );
} finally {
  await db().simulation.deleteMany({ where: { tenantId: tenant.id } });
  await db().outboxEvent.deleteMany({ where: { tenantId: tenant.id } });
  await stopListener().catch(() => undefined);
  await disconnectDb();
}
