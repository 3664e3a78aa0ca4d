import { rejectProposalOperation } from "@/lib/api/operations/proposals";
import { apiRoute } from "@/lib/api/route";
import { applyProposalAction } from "@/lib/proposals/apply-action";

// POST /v1/proposals/{id}/reject — one transition of the proposal state machine (409 when not allowed).
export const POST = apiRoute(rejectProposalOperation, async ({ ctx, params, body }) => ({
  body: await applyProposalAction(ctx, ctx.actor, params.id, "reject", { reason: body.reason }),
}));
