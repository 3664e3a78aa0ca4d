import { getContractOperation } from "@/lib/api/operations/contracts";
import { apiRoute } from "@/lib/api/route";
import { getContract } from "@/lib/contracts/queries";

// GET /v1/contracts/{id} — one contract with its frozen terms.
export const GET = apiRoute(getContractOperation, async ({ ctx, params }) => ({ body: await getContract(ctx, params.id) }));
