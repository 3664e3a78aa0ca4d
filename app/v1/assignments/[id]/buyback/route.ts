import { buybackAssignmentOperation } from "@/lib/api/operations/assignments";
import { apiRoute } from "@/lib/api/route";
import { buybackContracts } from "@/lib/assignments/buyback";

// POST /v1/assignments/{id}/buyback — the originator buys contracts of a settled assignment back (recompra).
export const POST = apiRoute(buybackAssignmentOperation, async ({ ctx, params, body }) => ({ body: await buybackContracts(ctx, ctx.actor, params.id, body) }));
