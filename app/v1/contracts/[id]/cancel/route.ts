import { cancelContractOperation } from "@/lib/api/operations/contracts";
import { apiRoute } from "@/lib/api/route";
import { todayInBrazil } from "@/lib/clock";
import { cancelContract } from "@/lib/contracts/cancel-contract";

// POST /v1/contracts/{id}/cancel — the borrower's withdrawal (7 days, no payments yet).
export const POST = apiRoute(cancelContractOperation, async ({ ctx, params, body }) => ({
  body: await cancelContract(ctx, ctx.actor, params.id, body.reason, todayInBrazil()),
}));
