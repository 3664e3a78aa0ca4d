import { listAssignmentContractsOperation } from "@/lib/api/operations/assignments";
import { apiRoute } from "@/lib/api/route";
import { listAssignmentContracts } from "@/lib/assignments/assignments";

// GET /v1/assignments/{id}/contracts — the assignment's contracts, a page at a time, by contract id.
export const GET = apiRoute(listAssignmentContractsOperation, async ({ ctx, params, query }) => ({ body: await listAssignmentContracts(ctx, params.id, query) }));
