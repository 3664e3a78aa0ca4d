import { listPaymentsOperation } from "@/lib/api/operations/collection";
import { apiRoute } from "@/lib/api/route";
import { listPayments } from "@/lib/collection/charges";

// GET /v1/payments — every payment received, newest first, with its allocation.
export const GET = apiRoute(listPaymentsOperation, async ({ ctx, query }) => ({ body: await listPayments(ctx, query) }));
