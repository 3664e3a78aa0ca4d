import { getChargeOperation } from "@/lib/api/operations/collection";
import { apiRoute } from "@/lib/api/route";
import { getCharge } from "@/lib/collection/charges";

// GET /v1/charges/{id}
export const GET = apiRoute(getChargeOperation, async ({ ctx, params }) => ({ body: await getCharge(ctx, params.id) }));
