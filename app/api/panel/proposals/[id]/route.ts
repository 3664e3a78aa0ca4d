import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";
import { proposalDossier } from "@/lib/panel/proposal-review";

// GET /api/panel/proposals/{id}?environment= — the proposal with its customer, simulation, risk, margin and history.
export const GET = panelRoute({}, async ({ user, params, request }) => ({ body: await proposalDossier(panelScope(user, request), params.id!) }));
