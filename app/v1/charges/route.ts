import { createChargeOperation, listChargesOperation } from "@/lib/api/operations/collection";
import { apiRoute } from "@/lib/api/route";
import { listCharges } from "@/lib/collection/charges";
import { createCharge } from "@/lib/collection/create-charge";

// POST /v1/charges — a boleto or Pix charge for open installments.
export const POST = apiRoute(createChargeOperation, async ({ ctx, body }) => ({ status: 201, body: await createCharge(ctx, ctx.actor, body) }));

// GET /v1/charges — newest first.
export const GET = apiRoute(listChargesOperation, async ({ ctx, query }) => ({ body: await listCharges(ctx, query) }));
