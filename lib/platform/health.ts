import type { Environment } from "@prisma/client";
import { z } from "zod";
import { databaseDown, reportDatabaseUp } from "@/lib/db/availability";
import { probeDatabase } from "@/lib/db/client";
import { API_VERSION } from "@/lib/version";

export const HealthResponse = z
  .object({
    status: z.literal("ok").meta({ description: "`ok` when the API accepts requests." }),
    environment: z.enum(["sandbox", "production"]).meta({ description: "The environment of the base address used." }),
    version: z.string().meta({ description: "The API's semantic version.", example: API_VERSION }),
    tenant: z.string().meta({ description: "The tenant's identifier (the caller's X-Tenant-Id).", example: "ten_01JD0000000000000000000000" }),
  })
  .meta({ id: "Health" });
export type HealthResponse = z.infer<typeof HealthResponse>;

// The authenticated health check: it answers only once the credential, tenant, environment and rate
// limit checks passed, so a 200 proves the whole integration path works. Its credential usually comes from the cache,
// so it does not touch the database — unless this process has seen the database fail (a request's error, the
// credential listener's lost connection or unanswered heartbeat): then it asks the database (a SELECT 1 on a connection
// of its own, bounded — not one of the pool's, which a busy instance may all be using), and
// answers 503 while it does not answer — or, when it does, reports it back and answers 200. A load balancer polling
// health thus takes the instance out while its database is unreachable, and puts it back once it is not.
export async function health(tenantId: string, environment: Environment): Promise<HealthResponse> {
  if (databaseDown()) {
    await probeDatabase();
    reportDatabaseUp();
  }
  return { status: "ok", environment, version: API_VERSION, tenant: tenantId };
}

export const HealthUnavailableResponse = z
  .object({
    status: z.literal("database_unavailable").meta({ description: "The database cannot be reached: take this instance out of rotation and retry later." }),
    environment: z.enum(["sandbox", "production"]).nullable().meta({ description: "The environment of the base address used (null for an unknown host)." }),
    version: z.string().meta({ description: "The API's semantic version.", example: API_VERSION }),
    tenant: z.string().nullable().meta({ description: "The X-Tenant-Id sent, echoed unverified (credentials cannot be checked without the database); null when absent or malformed." }),
    checks: z.object({ database: z.literal("unavailable") }).meta({ description: "The dependency that failed." }),
    code: z.literal("service_unavailable"),
    retryable: z.literal(true),
    request_id: z.string(),
  })
  .meta({ id: "HealthUnavailable" });
export type HealthUnavailableResponse = z.infer<typeof HealthUnavailableResponse>;

const TENANT_ID = /^ten_[0-9A-Z]{26}$/;

/** The 503 answer of the health check while the database is down (the wrapper answers it; see route.ts). */
export function healthUnavailable(input: { tenantHeader: string | null; environment: Environment | null; requestId: string }): HealthUnavailableResponse {
  const tenant = input.tenantHeader?.trim() ?? null;
  return {
    status: "database_unavailable",
    environment: input.environment,
    version: API_VERSION,
    tenant: tenant && TENANT_ID.test(tenant) ? tenant : null,
    checks: { database: "unavailable" },
    code: "service_unavailable",
    retryable: true,
    request_id: input.requestId,
  };
}
