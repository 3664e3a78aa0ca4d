import { panelRoute } from "@/lib/panel/panel-route";
import { panelScope } from "@/lib/panel/environment-param";
import { getDelivery } from "@/lib/webhooks/deliveries";

// GET /api/panel/webhook-deliveries/{id}?environment= — with every attempt's request and response.
export const GET = panelRoute({ manageCredentials: true }, async ({ user, params, request }) => ({ body: await getDelivery(panelScope(user, request), params.id!) }));
