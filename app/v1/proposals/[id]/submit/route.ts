import { submitProposalOperation } from "@/lib/api/operations/proposals";
import { apiRoute } from "@/lib/api/route";
import { submitProposal } from "@/lib/proposals/submit-proposal";

// POST /v1/proposals/{id}/submit — submit, score, reserve payroll margin, and approve/route/reject (409 when not a draft).
export const POST = apiRoute(submitProposalOperation, async ({ ctx, params, body }) => ({
  body: await submitProposal(ctx, ctx.actor, params.id, body.margin_query_id),
}));
