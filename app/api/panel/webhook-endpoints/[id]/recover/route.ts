import { panelRoute } from "@/lib/panel/panel-route";
import { panelScope } from "@/lib/panel/environment-param";
import { recoverEndpoint } from "@/lib/webhooks/recovery";
import { RecoverEndpointBody } from "@/lib/webhooks/schemas";

// POST /api/panel/webhook-endpoints/{id}/recover?environment= — queues again the events the endpoint missed since then.
export const POST = panelRoute({ manageCredentials: true, body: RecoverEndpointBody }, async ({ user, actor, body, params, request }) => ({
  status: 202,
  body: await recoverEndpoint(panelScope(user, request), actor, params.id!, body),
}));
