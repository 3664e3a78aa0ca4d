import { getRefundOperation } from "@/lib/api/operations/collection";
import { apiRoute } from "@/lib/api/route";
import { getRefund } from "@/lib/collection/refunds";

// GET /v1/refunds/{id}
export const GET = apiRoute(getRefundOperation, async ({ ctx, params }) => ({ body: await getRefund(ctx, params.id) }));
