import { contractInstallmentsOperation } from "@/lib/api/operations/contracts";
import { apiRoute } from "@/lib/api/route";
import { listInstallments } from "@/lib/installments/queries";

// GET /v1/contracts/{id}/installments — the contract's schedule as installments, earliest due first.
export const GET = apiRoute(contractInstallmentsOperation, async ({ ctx, params, query }) => ({
  body: await listInstallments(ctx, { ...query, contract_id: params.id }),
}));
