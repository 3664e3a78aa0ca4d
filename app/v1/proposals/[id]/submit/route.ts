import { submitProposalOperation } from "@/lib/api/operations/proposals";
import { apiRoute } from "@/lib/api/route";
import { applyProposalAction } from "@/lib/proposals/apply-action";

// POST /v1/proposals/{id}/submit — one transition of the proposal state machine (409 when not allowed).
export const POST = apiRoute(submitProposalOperation, async ({ ctx, params }) => ({
  body: await applyProposalAction(ctx, ctx.actor, params.id, "submit"),
}));
