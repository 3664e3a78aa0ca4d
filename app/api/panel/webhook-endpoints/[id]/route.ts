import { panelRoute } from "@/lib/panel/panel-route";
import { panelScope } from "@/lib/panel/environment-param";
import { deleteEndpoint, updateEndpoint } from "@/lib/webhooks/endpoints";
import { UpdateWebhookEndpointBody } from "@/lib/webhooks/schemas";

// PATCH /api/panel/webhook-endpoints/{id}?environment= — enable / disable, URL, event types, description.
export const PATCH = panelRoute({ manageCredentials: true, body: UpdateWebhookEndpointBody }, async ({ user, actor, body, params, request }) => ({
  body: await updateEndpoint(panelScope(user, request), actor, params.id!, body),
}));

// DELETE /api/panel/webhook-endpoints/{id}?environment= — with its delivery log (the panel confirms first): gone at once,
// removed in batches by the retention purger (lib/webhooks/retention.ts).
export const DELETE = panelRoute({ manageCredentials: true }, async ({ user, actor, params, request }) => ({ body: await deleteEndpoint(panelScope(user, request), actor, params.id!) }));
