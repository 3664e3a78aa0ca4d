import { customerFile } from "@/lib/panel/customer-view";
import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";

// GET /api/panel/customers/{id}?environment= — the customer with their proposals and contracts.
export const GET = panelRoute({}, async ({ user, params, request }) => ({ body: await customerFile(panelScope(user, request), params.id!) }));
