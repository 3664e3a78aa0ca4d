import { createProposalOperation, listProposalsOperation } from "@/lib/api/operations/proposals";
import { apiRoute } from "@/lib/api/route";
import { createProposal } from "@/lib/proposals/create-proposal";
import { listProposals } from "@/lib/proposals/queries";

// POST /v1/proposals — create a draft proposal from a customer and a simulation.
export const POST = apiRoute(createProposalOperation, async ({ ctx, body }) => ({
  status: 201,
  body: await createProposal(ctx, ctx.actor, body),
}));

// GET /v1/proposals — list proposals, newest first.
export const GET = apiRoute(listProposalsOperation, async ({ ctx, query }) => ({ body: await listProposals(ctx, query) }));
