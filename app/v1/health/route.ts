import { healthOperation } from "@/lib/api/operations/platform";
import { apiRoute } from "@/lib/api/route";
import { health } from "@/lib/platform/health";

// GET /v1/health — the environment of the base address, the API version and the caller's tenant.
export const GET = apiRoute(healthOperation, async ({ ctx }) => ({
  body: await health(ctx.tenantId, ctx.environment),
}));
