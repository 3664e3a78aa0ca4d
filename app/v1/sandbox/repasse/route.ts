import { repasseOperation } from "@/lib/api/operations/sandbox";
import { apiRoute } from "@/lib/api/route";
import { runRepasse } from "@/lib/payroll/repasse";

// POST /v1/sandbox/repasse — apply a competence month's transfer from the paying source (sandbox only).
export const POST = apiRoute(repasseOperation, async ({ ctx, body }) => ({ body: await runRepasse(ctx, ctx.actor, body) }));
