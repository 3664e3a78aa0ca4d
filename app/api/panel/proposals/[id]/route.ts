import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";
import { openProposalDossier } from "@/lib/panel/proposal-review";

// GET /api/panel/proposals/{id}?environment= — the proposal with its customer, simulation, risk, margin and history (the
// access to the customer's data is logged).
export const GET = panelRoute({}, async ({ user, actor, params, request }) => ({ body: await openProposalDossier(panelScope(user, request), actor, params.id!) }));
