import { panelRoute } from "@/lib/panel/panel-route";
import { reviewQueue, ReviewQueueQuery } from "@/lib/panel/proposal-review";

// GET /api/panel/proposals?environment=&status=&product=&from=&to=&q=&order=&cursor=&limit= — the review queue
// (every role reads it).
export const GET = panelRoute({}, async ({ user, parseQuery }) => {
  const query = parseQuery(ReviewQueueQuery);
  return { body: await reviewQueue({ tenantId: user.tenantId, environment: query.environment }, query) };
});
