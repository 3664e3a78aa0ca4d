import { z } from "zod";
import { addMonths, largestPayment } from "@/lib/finance";
import { idSchema } from "@/lib/id-schema";
import { LateChargesSchema } from "@/lib/contracts/late-rules";
import { ListQuery } from "@/lib/pagination";
import { CreateSimulationBody } from "@/lib/simulations/schemas";
import { PROPOSAL_STATUSES } from "./transitions";


export const CreateProposalBody = z
  .strictObject({
    customer_id: idSchema("customer", "customer").meta({ description: "The borrower (must exist in this environment)." }),
    simulation_id: idSchema("simulation", "simulation").optional().meta({
      description: "A stored simulation whose terms the proposal freezes. Exactly one of `simulation_id` and `terms`.",
    }),
    margin_query_id: idSchema("marginQuery", "margin query").optional().meta({
      description:
        "Required for payroll products (inss_payroll, private_payroll): a valid margin query of the customer (POST /v1/payroll/margin-queries) whose available loan margin covers the installment. Submission reserves the installment against it.",
    }),
    terms: CreateSimulationBody.optional().meta({
      description:
        "Inline terms, exactly as the body of POST /v1/simulations: the simulation is computed and stored (it appears under " +
        "/v1/simulations and is the proposal's `simulation_id`), then frozen into the proposal. `customer_id` inside, if sent, must be the same.",
    }),
  })
  .superRefine((body, ctx) => {
    if ((body.simulation_id === undefined) === (body.terms === undefined)) {
      ctx.addIssue({ code: "custom", path: ["simulation_id"], message: "Send exactly one of simulation_id and terms" });
    }
    if (body.terms?.customer_id !== undefined && body.terms.customer_id !== body.customer_id) {
      ctx.addIssue({ code: "custom", path: ["terms", "customer_id"], message: "Must be the proposal's customer_id" });
    }
  })
  .meta({ id: "CreateProposalBody" });

export const ProposalIdParams = z.strictObject({ id: idSchema("proposal", "proposal") });

export const ReasonBody = z
  .strictObject({ reason: z.string().trim().min(1).max(500).optional().meta({ description: "Why (kept with the proposal)." }) })
  .meta({ id: "ReasonBody" });

export const SubmitBody = z
  .strictObject({
    margin_query_id: idSchema("marginQuery", "margin query").optional().meta({
      description:
        "Payroll proposals: a newer margin query of the customer (same paying source) to reserve against, replacing the proposal's — a draft outlives a margin query's `valid_until` (24 h in the sandbox). Checked like the proposal's own at creation.",
    }),
  })
  .meta({ id: "SubmitProposalBody" });

export const RejectBody = z
  .strictObject({ reason: z.string().trim().min(1).max(500).meta({ description: "Why the proposal was rejected." }) })
  .meta({ id: "RejectBody" });

export const ListProposalsQuery = ListQuery.extend({
  status: z.enum(PROPOSAL_STATUSES).optional().meta({ description: "Only proposals in this status." }),
  customer_id: idSchema("customer", "customer").optional(),
});

export type ProposalTerms = z.infer<typeof ProposalTerms>;

/** The last installment's due date of a proposal's terms: its frozen schedule's, or monthly from the first due date. */
export function lastDueDateOf(terms: { first_due_date: string; term: number; schedule?: { due_date: string }[] }): string {
  return terms.schedule?.at(-1)?.due_date ?? addMonths(terms.first_due_date, terms.term - 1);
}

/** What the paying source deducts each month for a proposal (its largest installment); proposals stored before
 *  the field existed carry their schedule, from which it is read. */
export function deductedInstallment(terms: { installment_amount: number; max_installment_amount?: number; schedule?: { payment: number }[] }): number {
  return terms.max_installment_amount ?? (terms.schedule ? largestPayment(terms.schedule) : terms.installment_amount);
}
export const ProposalTerms = z.object({
  product: z.string(),
  amortization: z.string(),
  principal: z.number().int().meta({ description: "Financed principal, centavos." }),
  released_amount: z.number().int().meta({ description: "Amount released to the borrower, centavos." }),
  installment_amount: z.number().int(),
  max_installment_amount: z.number().int().meta({ description: "The largest installment: what payroll products reserve and endorse against the margin." }),
  monthly_rate: z.string(),
  term: z.number().int(),
  disbursement_date: z.string(),
  first_due_date: z.string(),
  cet: z.object({ monthly_percent: z.string(), annual_percent: z.string() }),
  late_charges: LateChargesSchema,
});

export const ProposalResponse = z
  .object({
    id: z.string(),
    object: z.literal("proposal"),
    status: z.enum(PROPOSAL_STATUSES),
    allowed_actions: z.array(z.string()).meta({ description: "Actions the current status allows." }),
    customer_id: z.string(),
    simulation_id: z.string().nullable(),
    margin_query_id: z.string().nullable().meta({ description: "Payroll products: the margin query the installment was checked against." }),
    risk_assessment_id: z.string().nullable().meta({ description: "The assessment submission ran (GET /v1/risk-assessments/{id}); null before submission." }),
    terms: ProposalTerms,
    reason: z.string().nullable(),
    expires_at: z.string().nullable().meta({ description: "After this instant the expiry job closes the proposal as `expired` if no contract was issued from it — a signed one too (a payroll proposal's averbação is then ended at the authority and its margin released)." }),
    contract_id: z.string().nullable(),
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Proposal" });
export type ProposalResponse = z.infer<typeof ProposalResponse>;
