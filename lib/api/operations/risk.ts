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
    "installment overdue beyond 2 business days of clearing, commitment above 45% (a declared income of 0 included), a borrower under 18, " +
    "age above 85 at the last installment; review at most: no declared income or birth date, an unpaid installment of a payroll-deducted " +
    "contract); reason codes with their points and text; and the maximum affordable installment. Other debt counts what the borrower " +
    "declared, the open installments of this platform's contracts and the installments of their other proposals under review, approved " +
    "or signed. The inputs are stored with the result; the call is audited. Proposal submission runs the same assessment.",
  tags,
  auth: "bearer",
  permission: "risk:write",
  alsoRequires: "customers:read", // inputs: the customer's birth date and income
  body: CreateRiskAssessmentBody,
  responses: { 201: { description: "The assessment, stored with its inputs.", schema: RiskAssessmentResponse, example: RISK_ASSESSMENT_EXAMPLE } },
  errors: [404, 422],
  errorNotes: {
    400: "Besides field errors: `margin_query_required` (a payroll product without a margin query); `margin_query_id` on another product, or a query of another paying source.",
    422: "`margin_query_expired`: the margin query is past its `valid_until` — assess with a new one; or `idempotency_key_reused`.",
  },
});

export const listRiskAssessmentsOperation = defineOperation({
  operationId: "listRiskAssessments",
  method: "GET",
  path: "/v1/risk-assessments",
  summary: "List risk assessments, newest first",
  tags,
  auth: "bearer",
  permission: "risk:read",
  alsoRequires: "customers:read", // inputs: the customer's birth date and income
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
  alsoRequires: "customers:read", // inputs: the customer's birth date and income
  params: RiskAssessmentIdParams,
  responses: { 200: { description: "The assessment.", schema: RiskAssessmentResponse } },
  errors: [404],
});

export const riskOperations = [createRiskAssessmentOperation, listRiskAssessmentsOperation, getRiskAssessmentOperation];
