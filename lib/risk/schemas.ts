import { z } from "zod";
import { idSchema } from "@/lib/id-schema";
import { ListQuery } from "@/lib/pagination";
import { PRODUCT_CODES } from "@/lib/products";
import { BANDS, DECISIONS, REASON_CODES, SCORECARD_VERSION } from "./scorecard";

const centavos = (description: string) => z.number().int().min(0).max(100_000_000_00).meta({ description });

export const CreateRiskAssessmentBody = z
  .strictObject({
    customer_id: idSchema("customer", "customer").meta({ description: "The borrower assessed." }),
    proposal_id: idSchema("proposal", "proposal").optional().meta({
      description: "Assess this proposal's terms (and its margin query, for payroll products). Exactly one of `proposal_id`, `simulation_id` and `terms`.",
    }),
    simulation_id: idSchema("simulation", "simulation").optional().meta({ description: "Assess a stored simulation's terms." }),
    terms: z
      .strictObject({
        product: z.enum(PRODUCT_CODES),
        installment_amount: centavos("The monthly installment, integer centavos.").refine((v) => v > 0, "Must be greater than 0"),
        term: z.number().int().min(1).max(420).meta({ description: "Number of monthly installments, within the product's terms (e.g. at most 96 for inss_payroll; otherwise 400 `product_rule_violation`)." }),
      })
      .optional()
      .meta({ description: "Terms given inline, for a pre-qualification before any simulation." }),
    margin_query_id: idSchema("marginQuery", "margin query").optional().meta({
      description: "A margin query of this customer whose available loan margin the installment is checked against (payroll products). Defaults to the proposal's.",
    }),
    other_monthly_debt: centavos("Other monthly debt payments the borrower declared elsewhere, integer centavos (added to the open installments of this platform's contracts and the customer's other proposals under review, approved or signed).")
      .default(0),
  })
  .superRefine((body, ctx) => {
    const given = [body.proposal_id, body.simulation_id, body.terms].filter((v) => v !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: "custom", path: ["proposal_id"], message: "Send exactly one of proposal_id, simulation_id and terms" });
  })
  .meta({ id: "CreateRiskAssessmentBody" });
export type CreateRiskAssessmentBody = z.infer<typeof CreateRiskAssessmentBody>;

export const RiskAssessmentIdParams = z.strictObject({ id: idSchema("riskAssessment", "risk assessment") });

export const ListRiskAssessmentsQuery = ListQuery.extend({
  customer_id: idSchema("customer", "customer").optional().meta({ description: "Only this customer's assessments." }),
  proposal_id: idSchema("proposal", "proposal").optional().meta({ description: "Only this proposal's assessments." }),
  decision: z.enum(DECISIONS).optional().meta({ description: "Only assessments with this decision." }),
});
export type ListRiskAssessmentsQuery = z.infer<typeof ListRiskAssessmentsQuery>;

export const RiskReason = z
  .object({
    code: z.enum(REASON_CODES).meta({ description: "Stable machine code." }),
    points: z.number().int().meta({ description: "What the factor added to (or took from) the score; 0 for knock-outs." }),
    description: z.string().meta({ description: "What the code means, for a person." }),
  })
  .meta({ id: "RiskReason" });

export const RiskInputsView = z
  .object({
    as_of: z.string(),
    customer_kind: z.enum(["person", "company"]),
    birth_date: z.string().nullable(),
    customer_since: z.string(),
    monthly_income: z.number().int().nullable(),
    other_monthly_debt: z.number().int(),
    installment_amount: z.number().int(),
    term_months: z.number().int(),
    last_due_date: z.string().nullable().meta({ description: "The last installment's due date (the age at term end is taken there); null for inline terms: `as_of` + the term." }),
    product: z.string(),
    payroll_deducted: z.boolean(),
    margin: z.object({ available_loan_margin: z.number().int(), source_status: z.string(), blocked_for_loans: z.boolean() }).nullable(),
    history: z.object({
      paid_installments: z.number().int(),
      paid_on_time: z.number().int().optional().meta({ description: "Paid by the due date, or the next business day when it was not one (since scorecard 2026-11.5)." }),
      overdue_now: z.number().int().meta({ description: "Unpaid past the due date and 2 business days of clearing (payroll-deducted contracts: only once unpaid for more than 30 days)." }),
      payroll_unpaid_now: z.number().int().optional().meta({ description: "Unpaid on payroll-deducted contracts past the clearing days but for at most 30 days: the paying source's transfer may be late — a review (since scorecard 2026-11.5)." }),
      late_over_30_days_last_12_months: z.number().int().meta({ description: "Unpaid for more than 30 days, or paid more than 30 days late (not counting payroll transfers), in the last 12 months." }),
    }),
  })
  .meta({ id: "RiskInputs", description: "Everything the scorecard read, stored so the decision can be recomputed and audited." });

export const RiskAssessmentResponse = z
  .object({
    id: z.string().meta({ example: "rsk_01JD2Z6Q7X9V3K8M4N5P6R7S8T" }),
    object: z.literal("risk_assessment"),
    customer_id: z.string(),
    proposal_id: z.string().nullable(),
    margin_query_id: z.string().nullable(),
    scorecard_version: z.string().meta({ example: SCORECARD_VERSION }),
    score: z.number().int().min(0).max(1000),
    band: z.enum(BANDS.map((b) => b.band) as [string, ...string[]]).meta({ description: "A ≥ 800, B ≥ 680, C ≥ 560, D ≥ 440, E below." }),
    decision: z.enum(DECISIONS).meta({ description: "approve (score ≥ 680), review (560–679), decline (below 560 or a knock-out)." }),
    reasons: z.array(RiskReason),
    max_affordable_installment: z.number().int().meta({
      description: "The largest installment the borrower can take, integer centavos: 35% of the monthly income minus other debts, capped by the available payroll margin.",
    }),
    inputs: RiskInputsView,
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
  })
  .meta({ id: "RiskAssessment" });
export type RiskAssessmentResponse = z.infer<typeof RiskAssessmentResponse>;
