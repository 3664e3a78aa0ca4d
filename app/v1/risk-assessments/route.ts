import { createRiskAssessmentOperation, listRiskAssessmentsOperation } from "@/lib/api/operations/risk";
import { apiRoute } from "@/lib/api/route";
import { createRiskAssessment } from "@/lib/risk/create-assessment";
import { listRiskAssessments } from "@/lib/risk/queries";

// POST /v1/risk-assessments — run the scorecard and store it with its inputs.
export const POST = apiRoute(createRiskAssessmentOperation, async ({ ctx, body }) => ({ status: 201, body: await createRiskAssessment(ctx, ctx.actor, body) }));

// GET /v1/risk-assessments — newest first.
export const GET = apiRoute(listRiskAssessmentsOperation, async ({ ctx, query }) => ({ body: await listRiskAssessments(ctx, query) }));
