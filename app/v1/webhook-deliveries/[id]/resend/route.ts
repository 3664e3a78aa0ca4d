import { resendWebhookDeliveryOperation } from "@/lib/api/operations/webhooks";
import { apiRoute } from "@/lib/api/route";
import { resendDelivery } from "@/lib/webhooks/deliveries";

// POST /v1/webhook-deliveries/{id}/resend — pending again, due now.
export const POST = apiRoute(resendWebhookDeliveryOperation, async ({ ctx, params }) => ({ status: 202, body: await resendDelivery(ctx, ctx.actor, params.id, ctx.credential.permissions) }));
