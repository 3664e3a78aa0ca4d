import { writeOffContractOperation } from "@/lib/api/operations/contracts";
import { apiRoute } from "@/lib/api/route";
import { todayInBrazil } from "@/lib/clock";
import { writeOffContract } from "@/lib/contracts/write-off";

// POST /v1/contracts/{id}/write-off — the lender writes a contract in default off; it is still collected.
export const POST = apiRoute(writeOffContractOperation, async ({ ctx, params, body }) => ({
  body: await writeOffContract(ctx, ctx.actor, params.id, body.reason, todayInBrazil()),
}));
