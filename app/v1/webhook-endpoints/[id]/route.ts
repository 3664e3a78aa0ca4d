import { deleteWebhookEndpointOperation, getWebhookEndpointOperation, updateWebhookEndpointOperation } from "@/lib/api/operations/webhooks";
import { apiRoute } from "@/lib/api/route";
import { deleteEndpoint, getEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";

export const GET = apiRoute(getWebhookEndpointOperation, async ({ ctx, params }) => ({ body: await getEndpoint(ctx, params.id) }));

export const PATCH = apiRoute(updateWebhookEndpointOperation, async ({ ctx, params, body }) => ({ body: await updateEndpoint(ctx, ctx.actor, params.id, body, ctx.credential.permissions) }));

// DELETE /v1/webhook-endpoints/{id} — with its deliveries and their attempts: gone at once for every API and the worker,
// removed in batches by the retention purger (lib/webhooks/retention.ts purgeDeletedEndpoints).
export const DELETE = apiRoute(deleteWebhookEndpointOperation, async ({ ctx, params }) => ({ body: await deleteEndpoint(ctx, ctx.actor, params.id) }));
