import { getMarginQueryOperation } from "@/lib/api/operations/payroll";
import { apiRoute } from "@/lib/api/route";
import { getMarginQuery } from "@/lib/payroll/margin-queries";

// GET /v1/payroll/margin-queries/{id}
export const GET = apiRoute(getMarginQueryOperation, async ({ ctx, params }) => ({ body: await getMarginQuery(ctx, params.id) }));
