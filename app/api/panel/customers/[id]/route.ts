import { openCustomerFile } from "@/lib/panel/customer-view";
import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";

// GET /api/panel/customers/{id}?environment= — the customer with their proposals and contracts (the access is logged).
export const GET = panelRoute({}, async ({ user, actor, params, request }) => ({ body: await openCustomerFile(panelScope(user, request), actor, params.id!) }));
