import { eraseCustomer } from "@/lib/customers";
import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";

// POST /api/panel/customers/{id}/erase?environment= — an owner or admin erases a customer's data at the person's request
// (LGPD): the same service and rules as DELETE /v1/customers/{id} (409 while a credit operation holds it), with the
// signed-in person as the actor in its audit row.
export const POST = panelRoute({ eraseCustomers: true }, async ({ user, actor, params, request }) => ({
  body: await eraseCustomer({ ...panelScope(user, request), actor }, params.id!),
}));
