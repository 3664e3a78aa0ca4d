import { listInstallmentsOperation } from "@/lib/api/operations/contracts";
import { apiRoute } from "@/lib/api/route";
import { listInstallments } from "@/lib/installments/queries";

// GET /v1/installments — filter by contract, status (as of a date) and due-date range.
export const GET = apiRoute(listInstallmentsOperation, async ({ ctx, query }) => ({ body: await listInstallments(ctx, query) }));
