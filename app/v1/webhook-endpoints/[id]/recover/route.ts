import { recoverWebhookEndpointOperation } from "@/lib/api/operations/webhooks";
import { apiRoute } from "@/lib/api/route";
import { recoverEndpoint } from "@/lib/webhooks/recovery";

// POST /v1/webhook-endpoints/{id}/recover — queues again the events the endpoint missed in a window.
export const POST = apiRoute(recoverWebhookEndpointOperation, async ({ ctx, params, body }) => ({ status: 202, body: await recoverEndpoint(ctx, ctx.actor, params.id, body, ctx.credential.permissions) }));
