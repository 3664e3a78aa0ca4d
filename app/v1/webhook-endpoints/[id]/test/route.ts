import { testWebhookEndpointOperation } from "@/lib/api/operations/webhooks";
import { apiRoute } from "@/lib/api/route";
import { sendTestEvent } from "@/lib/webhooks/deliveries";

// POST /v1/webhook-endpoints/{id}/test — a webhook_endpoint.test event to this endpoint only.
export const POST = apiRoute(testWebhookEndpointOperation, async ({ ctx, params }) => ({ status: 202, body: await sendTestEvent(ctx, ctx.actor, params.id) }));
