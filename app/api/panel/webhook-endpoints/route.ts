import { panelRoute } from "@/lib/panel/panel-route";
import { panelScope } from "@/lib/panel/environment-param";
import { createEndpoint, listEndpoints } from "@/lib/webhooks/endpoints";
import { CreateWebhookEndpointBody } from "@/lib/webhooks/schemas";

// Settings → Webhooks (owners and admins), the same services as /v1/webhook-endpoints; `?environment=`.

// GET /api/panel/webhook-endpoints?environment= — every endpoint of the environment (at most 20 exist).
export const GET = panelRoute({ manageCredentials: true }, async ({ user, request }) => ({ body: await listEndpoints(panelScope(user, request), { limit: 100 }) }));

// POST /api/panel/webhook-endpoints?environment= — the secret is in this response only.
export const POST = panelRoute({ manageCredentials: true, idempotent: true, body: CreateWebhookEndpointBody }, async ({ user, actor, body, request }) => ({
  status: 201,
  body: await createEndpoint(panelScope(user, request), actor, body),
}));
