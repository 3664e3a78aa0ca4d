import { openContractFile } from "@/lib/panel/contract-view";
import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";

// GET /api/panel/contracts/{id}?environment= — the contract's file: installments, charges, payments, settlements,
// payoff quote, assignment and event timeline (the access to the customer's data is logged).
export const GET = panelRoute({}, async ({ user, actor, params, request }) => ({ body: await openContractFile(panelScope(user, request), actor, params.id!) }));
