import type { Environment } from "@prisma/client";
import { z } from "zod";
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
// limit checks passed, so a 200 proves the whole integration path works.
export function health(tenantId: string, environment: Environment): HealthResponse {
  return { status: "ok", environment, version: API_VERSION, tenant: tenantId };
}
