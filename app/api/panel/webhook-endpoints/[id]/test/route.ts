import { panelRoute } from "@/lib/panel/panel-route";
import { panelScope } from "@/lib/panel/environment-param";
import { sendTestEvent } from "@/lib/webhooks/deliveries";

// POST /api/panel/webhook-endpoints/{id}/test?environment= — a webhook_endpoint.test event to this endpoint.
export const POST = panelRoute({ manageCredentials: true }, async ({ user, actor, params, request }) => ({ status: 202, body: await sendTestEvent(panelScope(user, request), actor, params.id!) }));
