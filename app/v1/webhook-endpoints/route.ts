import { createWebhookEndpointOperation, listWebhookEndpointsOperation } from "@/lib/api/operations/webhooks";
import { apiRoute } from "@/lib/api/route";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/endpoints";

// POST /v1/webhook-endpoints — the secret is in this response only.
export const POST = apiRoute(createWebhookEndpointOperation, async ({ ctx, body }) => ({ status: 201, body: await createEndpoint(ctx, ctx.actor, body, ctx.credential.permissions) }));

// GET /v1/webhook-endpoints — newest first.
export const GET = apiRoute(listWebhookEndpointsOperation, async ({ ctx, query }) => ({ body: await listEndpoints(ctx, query) }));
