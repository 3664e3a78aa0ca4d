import { getSettlementBatchOperation } from "@/lib/api/operations/settlements";
import { apiRoute } from "@/lib/api/route";
import { getSettlementBatch } from "@/lib/settlements/batch";

// GET /v1/settlements/batch/{id} — progress and results.
export const GET = apiRoute(getSettlementBatchOperation, async ({ ctx, params }) => ({ body: await getSettlementBatch(ctx, params.id) }));
