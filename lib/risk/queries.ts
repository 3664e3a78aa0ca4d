import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { notFound } from "@/lib/errors";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import type { ListRiskAssessmentsQuery, RiskAssessmentResponse } from "./schemas";
import { toRiskAssessmentResponse } from "./serialize";

export async function getRiskAssessment(scope: Scope, id: string): Promise<RiskAssessmentResponse> {
  const row = await db().riskAssessment.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Risk assessment");
  return toRiskAssessmentResponse(row);
}

export async function listRiskAssessments(scope: Scope, query: ListRiskAssessmentsQuery) {
  const after = decodeCursor(scope, query.cursor, "riskAssessment");
  const filters = {
    ...where(scope),
    ...(query.customer_id ? { customerId: query.customer_id } : {}),
    ...(query.proposal_id ? { proposalId: query.proposal_id } : {}),
    ...(query.decision ? { decision: query.decision } : {}),
  };
  const page = await paginate(query.limit, (args) => db().riskAssessment.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, toRiskAssessmentResponse);
}
