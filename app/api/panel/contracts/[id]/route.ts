import { contractFile } from "@/lib/panel/contract-view";
import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";

// GET /api/panel/contracts/{id}?environment= — the contract's file: installments, charges, payments, settlements,
// payoff quote, assignment and event timeline.
export const GET = panelRoute({}, async ({ user, params, request }) => ({ body: await contractFile(panelScope(user, request), params.id!) }));
