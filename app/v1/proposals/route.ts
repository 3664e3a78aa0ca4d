import { createProposalOperation, listProposalsOperation } from "@/lib/api/operations/proposals";
import { TAX_RATE_DEPRECATION_HEADERS } from "@/lib/api/operations/simulations";
import { apiRoute } from "@/lib/api/route";
import { createProposal } from "@/lib/proposals/create-proposal";
import { listProposals } from "@/lib/proposals/queries";

// POST /v1/proposals — create a draft proposal from a customer and a simulation (or inline terms, whose deprecated
// `tax_rate` is answered with the same deprecation headers as a simulation's).
export const POST = apiRoute(createProposalOperation, async ({ ctx, body }) => ({
  status: 201,
  body: await createProposal(ctx, ctx.actor, body),
  headers: body.terms?.tax_rate !== undefined ? TAX_RATE_DEPRECATION_HEADERS : undefined,
}));

// GET /v1/proposals — list proposals, newest first.
export const GET = apiRoute(listProposalsOperation, async ({ ctx, query }) => ({ body: await listProposals(ctx, query) }));
