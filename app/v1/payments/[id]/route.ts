import { getPaymentOperation } from "@/lib/api/operations/collection";
import { apiRoute } from "@/lib/api/route";
import { getPayment } from "@/lib/collection/charges";

// GET /v1/payments/{id}
export const GET = apiRoute(getPaymentOperation, async ({ ctx, params }) => ({ body: await getPayment(ctx, params.id) }));
