import { sandboxPayChargeOperation } from "@/lib/api/operations/collection";
import { apiRoute } from "@/lib/api/route";
import { payCharge } from "@/lib/collection/pay-charge";

// POST /v1/sandbox/charges/{id}/pay — pay as the bank would (sandbox only), by the charge's own method.
export const POST = apiRoute(sandboxPayChargeOperation, async ({ ctx, params, body }) => ({
  body: await payCharge(ctx, ctx.actor, params.id, { amount: body.amount, paidOn: body.paid_on }),
}));
