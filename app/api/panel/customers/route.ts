import { CustomerListQuery, customerList } from "@/lib/panel/customer-view";
import { panelRoute } from "@/lib/panel/panel-route";

// GET /api/panel/customers?environment=&q=&cursor=&limit= — customers, newest first (every role reads them).
export const GET = panelRoute({}, async ({ user, parseQuery }) => {
  const query = parseQuery(CustomerListQuery);
  return { body: await customerList({ tenantId: user.tenantId, environment: query.environment }, query) };
});
