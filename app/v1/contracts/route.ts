import { issueContractOperation, listContractsOperation } from "@/lib/api/operations/contracts";
import { apiRoute } from "@/lib/api/route";
import { issueContract } from "@/lib/contracts/issue-contract";
import { listContracts } from "@/lib/contracts/queries";

// POST /v1/contracts — issue the contract of a signed proposal, with its installments.
export const POST = apiRoute(issueContractOperation, async ({ ctx, body }) => ({
  status: 201,
  body: await issueContract(ctx, ctx.actor, body.proposal_id),
}));

// GET /v1/contracts — list contracts, newest first.
export const GET = apiRoute(listContractsOperation, async ({ ctx, query }) => ({ body: await listContracts(ctx, query) }));
