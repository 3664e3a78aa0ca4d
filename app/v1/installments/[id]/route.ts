import { getInstallmentOperation } from "@/lib/api/operations/contracts";
import { apiRoute } from "@/lib/api/route";
import { getInstallment } from "@/lib/installments/queries";

// GET /v1/installments/{id} — the installment and its amount due on `as_of` (default today).
export const GET = apiRoute(getInstallmentOperation, async ({ ctx, params, query }) => ({
  body: await getInstallment(ctx, params.id, query.as_of),
}));
