import { getProposalOperation } from "@/lib/api/operations/proposals";
import { apiRoute } from "@/lib/api/route";
import { getProposal } from "@/lib/proposals/queries";

// GET /v1/proposals/{id} — one proposal of the caller's tenant and environment.
export const GET = apiRoute(getProposalOperation, async ({ ctx, params }) => ({ body: await getProposal(ctx, params.id) }));
