import type { Environment } from "@prisma/client";

// Every service call carries the caller's tenant and environment, taken from the credential by the
// /v1 wrapper. Spread `where(scope)` into every query so forgetting the scope is hard.
export type Scope = { tenantId: string; environment: Environment };

export function where(scope: Scope): { tenantId: string; environment: Environment } {
  return { tenantId: scope.tenantId, environment: scope.environment };
}
