import { panelRoute } from "@/lib/panel/panel-route";
import { panelScope } from "@/lib/panel/environment-param";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { ListDeliveriesQuery } from "@/lib/webhooks/schemas";

// GET /api/panel/webhook-deliveries?environment=&endpoint_id=&status=&cursor= — the delivery log, newest first.
export const GET = panelRoute({ manageCredentials: true }, async ({ user, request, query: raw, parseQuery }) => {
  const params = Object.fromEntries(Object.entries(raw).filter(([key]) => key !== "environment")); // the scope's, not a filter
  const query = parseQuery(ListDeliveriesQuery, params);
  return { body: await listDeliveries(panelScope(user, request), query) };
});
