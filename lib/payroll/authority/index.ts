import type { Environment } from "@prisma/client";
import { getEnv } from "@/lib/env";
import { authorityCallBudgetMs } from "./call-budget";
import { HttpPayrollAuthority } from "./http-client";
import { SandboxSimulator } from "./sandbox-simulator";
import { AuthorityError, type PayrollAuthority } from "./types";

// The payroll authority an environment talks to, made once per process (the circuit breaker's state and the
// cached token are shared by every request). Sandbox: always the simulator (documented trigger values).
// Production: the authority's HTTP client when PAYROLL_AUTHORITY_URL is set; otherwise every production
// payroll call answers 503 `authority_unavailable` — production data never gets simulated answers.
let sandbox: PayrollAuthority | undefined;
let production: PayrollAuthority | undefined;

/**
 * Options for a transaction that calls the authority: Prisma's default 5 s would cut a slow but healthy call
 * (timeouts × attempts + backoff) short. Inside an idempotent request the ambient transaction's own limit
 * (IDEMPOTENCY_LEASE_SECONDS, 30 s by default) applies instead: lib/env.ts refuses one shorter than this.
 */
export function authorityTransactionOptions(): { timeout: number; maxWait: number } {
  const env = getEnv();
  return { timeout: authorityCallBudgetMs(env) + 5000, maxWait: env.DATABASE_CONNECT_TIMEOUT_MS };
}

export function payrollAuthorityFor(environment: Environment): PayrollAuthority {
  if (environment === "sandbox") return (sandbox ??= new SandboxSimulator());
  if (production) return production;
  const env = getEnv();
  if (!env.PAYROLL_AUTHORITY_URL) throw new AuthorityError("unavailable", "The payroll authority is not configured for production (PAYROLL_AUTHORITY_URL)");
  return (production = HttpPayrollAuthority.fromEnv(env));
}
