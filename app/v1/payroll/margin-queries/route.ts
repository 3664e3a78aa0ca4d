import { createMarginQueryOperation, listMarginQueriesOperation } from "@/lib/api/operations/payroll";
import { apiRoute } from "@/lib/api/route";
import { createMarginQuery, listMarginQueries } from "@/lib/payroll/margin-queries";

// POST /v1/payroll/margin-queries — ask the authority for the customer's margin and store the answer.
export const POST = apiRoute(createMarginQueryOperation, async ({ ctx, body }) => ({ status: 201, body: await createMarginQuery(ctx, body) }));

// GET /v1/payroll/margin-queries — newest first.
export const GET = apiRoute(listMarginQueriesOperation, async ({ ctx, query }) => ({ body: await listMarginQueries(ctx, query) }));
