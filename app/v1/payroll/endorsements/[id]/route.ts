import { getEndorsementOperation } from "@/lib/api/operations/payroll";
import { apiRoute } from "@/lib/api/route";
import { getEndorsement } from "@/lib/payroll/endorsements";

// GET /v1/payroll/endorsements/{id}
export const GET = apiRoute(getEndorsementOperation, async ({ ctx, params }) => ({ body: await getEndorsement(ctx, params.id) }));
