import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";
import { ReviewBody, reviewProposal } from "@/lib/panel/proposal-review";

// POST /api/panel/proposals/{id}/review?environment= — {decision: approve|reject, reason}: support staff and above.
export const POST = panelRoute({ review: true, body: ReviewBody }, async ({ user, actor, body, params, request }) => ({
  body: await reviewProposal(panelScope(user, request), actor, params.id!, body),
}));
