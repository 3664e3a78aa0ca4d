import { getWebhookDeliveryOperation } from "@/lib/api/operations/webhooks";
import { apiRoute } from "@/lib/api/route";
import { getDelivery } from "@/lib/webhooks/deliveries";

// GET /v1/webhook-deliveries/{id} — with every attempt.
export const GET = apiRoute(getWebhookDeliveryOperation, async ({ ctx, params }) => ({ body: await getDelivery(ctx, params.id, ctx.credential.permissions) }));
