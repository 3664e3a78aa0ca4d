import { cancelChargeOperation } from "@/lib/api/operations/collection";
import { apiRoute } from "@/lib/api/route";
import { cancelCharge } from "@/lib/collection/charges";

// POST /v1/charges/{id}/cancel — 409 when paid, canceled or expired.
export const POST = apiRoute(cancelChargeOperation, async ({ ctx, params }) => ({ body: await cancelCharge(ctx, ctx.actor, params.id) }));
