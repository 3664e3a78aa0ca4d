import { listEnvelope } from "@/lib/pagination";
import { CreateRiskAssessmentBody, ListRiskAssessmentsQuery, RiskAssessmentIdParams, RiskAssessmentResponse } from "@/lib/risk/schemas";
import { SCORECARD_VERSION } from "@/lib/risk/scorecard";
import { defineOperation } from "../operation";
import { RISK_ASSESSMENT_EXAMPLE } from "./examples";

const tags = ["Risk"];

export const createRiskAssessmentOperation = defineOperation({
  operationId: "createRiskAssessment",
  method: "POST",
  path: "/v1/risk-assessments",
  summary: "Score a customer for a proposal, a simulation or inline terms",
  description:
    `Runs the documented scorecard (version ${SCORECARD_VERSION}, lib/risk/scorecard.ts; README "Risk and scoring"): a score 0–1000 ` +
    "from income commitment, age, payroll deduction and margin, this platform's payment history, tenure and term; a band (A–E); a " +
    "decision (approve ≥ 680, review 560–679, decline below, or a knock-out: insufficient margin, inactive or blocked benefit, an " +
    "overdue installment, commitment above 45%, age above 85 at the last installment); reason codes with their points and text; and " +
    "the maximum affordable installment. The inputs are stored with the result. Proposal submission runs the same assessment.",
  tags,
  auth: "bearer",
  permission: "risk:write",
  body: CreateRiskAssessmentBody,
  responses: { 201: { description: "The assessment, stored with its inputs.", schema: RiskAssessmentResponse, example: RISK_ASSESSMENT_EXAMPLE } },
  errors: [404],
});

export const listRiskAssessmentsOperation = defineOperation({
  operationId: "listRiskAssessments",
  method: "GET",
  path: "/v1/risk-assessments",
  summary: "List risk assessments, newest first",
  tags,
  auth: "bearer",
  permission: "risk:read",
  query: ListRiskAssessmentsQuery,
  responses: { 200: { description: "A page of assessments.", schema: listEnvelope(RiskAssessmentResponse) } },
});

export const getRiskAssessmentOperation = defineOperation({
  operationId: "getRiskAssessment",
  method: "GET",
  path: "/v1/risk-assessments/{id}",
  summary: "Get a risk assessment",
  tags,
  auth: "bearer",
  permission: "risk:read",
  params: RiskAssessmentIdParams,
  responses: { 200: { description: "The assessment.", schema: RiskAssessmentResponse } },
  errors: [404],
});

export const riskOperations = [createRiskAssessmentOperation, listRiskAssessmentsOperation, getRiskAssessmentOperation];
