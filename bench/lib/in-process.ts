import { randomBytes } from "node:crypto";

// Shared by the in-process cost scripts (bench/list-cost.ts, bench/margin-query-cost.ts): the environment they
// run the real handlers in, a throw-away tenant with a sandbox key, and a CPU-per-call measure. Import it before
// anything of lib/ (it sets the environment lib/env.ts reads).

process.env.RATE_LIMIT_SANDBOX_PER_MINUTE ??= "100000000";
process.env.AUTH_JWT_SECRET ??= randomBytes(32).toString("hex");
process.env.LOG_LEVEL ??= "silent";

export const iterations = Number(process.env.BENCH_ITERATIONS || 300);
export const warmup = Number(process.env.BENCH_WARMUP_ITERATIONS || 100);

/** Runs fn warm-up + measured times and prints node CPU and wall milliseconds per call. */
export async function measure(name: string, fn: () => unknown | Promise<unknown>): Promise<void> {
  for (let i = 0; i < warmup; i += 1) await fn();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < iterations; i += 1) await fn();
  const c = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  console.log(`${name.padEnd(56)} ${((c.user + c.system) / 1000 / iterations).toFixed(3).padStart(7)} ms CPU  ${(wall / iterations).toFixed(3).padStart(7)} ms wall`);
}

/** A new tenant with a sandbox key (read write): the headers to call /v1 with and the service scope. */
export async function benchCaller() {
  const { createApiKey } = await import("@/lib/auth/api-keys");
  const { createTenant } = await import("@/lib/tenants/tenants");
  const slug = `bench-${randomBytes(4).toString("hex")}`;
  const actor = { type: "cli", label: "bench" } as const;
  const { tenant } = await createTenant({ slug, name: slug, owner: { email: `owner@${slug}.test`, name: "Owner", password: "correct horse battery" } }, actor);
  const { key } = await createApiKey({ tenantId: tenant.id, environment: "sandbox", name: "bench", permissions: ["read", "write"], actor });
  return { tenantId: tenant.id, headers: { authorization: `Bearer ${key}`, "x-tenant-id": tenant.id }, scope: { tenantId: tenant.id, environment: "sandbox" as const } };
}
