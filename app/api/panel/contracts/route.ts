import { ContractListQuery, contractList } from "@/lib/panel/contract-view";
import { panelRoute } from "@/lib/panel/panel-route";

// GET /api/panel/contracts?environment=&status=&q=&cursor=&limit= — contracts, newest first (every role reads them).
export const GET = panelRoute({}, async ({ user, parseQuery }) => {
  const query = parseQuery(ContractListQuery);
  return { body: await contractList({ tenantId: user.tenantId, environment: query.environment }, query) };
});
