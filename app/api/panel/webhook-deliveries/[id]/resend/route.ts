import { panelRoute } from "@/lib/panel/panel-route";
import { panelScope } from "@/lib/panel/environment-param";
import { resendDelivery } from "@/lib/webhooks/deliveries";

// POST /api/panel/webhook-deliveries/{id}/resend?environment=
export const POST = panelRoute({ manageCredentials: true }, async ({ user, actor, params, request }) => ({ status: 202, body: await resendDelivery(panelScope(user, request), actor, params.id!) }));
