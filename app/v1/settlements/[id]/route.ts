import { getSettlementOperation } from "@/lib/api/operations/settlements";
import { apiRoute } from "@/lib/api/route";
import { getSettlement } from "@/lib/settlements/settlements";

// GET /v1/settlements/{id}
export const GET = apiRoute(getSettlementOperation, async ({ ctx, params }) => ({ body: await getSettlement(ctx, params.id) }));
