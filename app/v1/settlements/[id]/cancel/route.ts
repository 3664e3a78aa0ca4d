import { cancelSettlementOperation } from "@/lib/api/operations/settlements";
import { apiRoute } from "@/lib/api/route";
import { cancelSettlement } from "@/lib/settlements/settlements";

// POST /v1/settlements/{id}/cancel — a pending settlement and its open charge.
export const POST = apiRoute(cancelSettlementOperation, async ({ ctx, params, body }) => ({ body: await cancelSettlement(ctx, ctx.actor, params.id, body.reason) }));
