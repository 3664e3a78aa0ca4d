import { createEndorsementOperation, listEndorsementsOperation } from "@/lib/api/operations/payroll";
import { apiRoute } from "@/lib/api/route";
import { createEndorsement, listEndorsements } from "@/lib/payroll/endorsements";

// POST /v1/payroll/endorsements — averbação of a signed payroll proposal (201 endorsed or refused).
export const POST = apiRoute(createEndorsementOperation, async ({ ctx, body }) => ({
  status: 201,
  body: await createEndorsement(ctx, ctx.actor, body.proposal_id),
}));

// GET /v1/payroll/endorsements — newest first.
export const GET = apiRoute(listEndorsementsOperation, async ({ ctx, query }) => ({ body: await listEndorsements(ctx, query) }));
