import { createSettlementOperation, listSettlementsOperation } from "@/lib/api/operations/settlements";
import { apiRoute } from "@/lib/api/route";
import { createSettlement } from "@/lib/settlements/create-settlement";
import { listSettlements } from "@/lib/settlements/settlements";

// POST /v1/settlements — a full or partial settlement of a contract.
export const POST = apiRoute(createSettlementOperation, async ({ ctx, body }) => ({ status: 201, body: await createSettlement(ctx, ctx.actor, body) }));

// GET /v1/settlements — newest first.
export const GET = apiRoute(listSettlementsOperation, async ({ ctx, query }) => ({ body: await listSettlements(ctx, query) }));
