import { getRiskAssessmentOperation } from "@/lib/api/operations/risk";
import { apiRoute } from "@/lib/api/route";
import { getRiskAssessment } from "@/lib/risk/queries";

// GET /v1/risk-assessments/{id}
export const GET = apiRoute(getRiskAssessmentOperation, async ({ ctx, params }) => ({ body: await getRiskAssessment(ctx, params.id) }));
