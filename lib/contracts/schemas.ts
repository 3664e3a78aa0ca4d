import { z } from "zod";
import { idSchema } from "@/lib/id-schema";
import { ListQuery } from "@/lib/pagination";
import { CONTRACT_STATUSES } from "./transitions";
import { LateChargesSchema } from "./late-rules";


export const IssueContractBody = z
  .strictObject({
    proposal_id: idSchema("proposal", "proposal").meta({ description: "A signed proposal; its frozen terms and schedule become the contract's." }),
  })
  .meta({ id: "IssueContractBody" });

export const ContractIdParams = z.strictObject({ id: idSchema("contract", "contract") });

export const CancelContractBody = z
  .strictObject({ reason: z.string().trim().min(1).max(500).meta({ description: "Why the borrower withdrew." }) })
  .meta({ id: "CancelContractBody" });

export const WriteOffContractBody = z
  .strictObject({ reason: z.string().trim().min(3).max(500).meta({ description: "Why it is written off (kept in the audit log and the event).", example: "No payment for 180 days; collection exhausted" }) })
  .meta({ id: "WriteOffContractBody" });

export const ListContractsQuery = ListQuery.extend({
  status: z.enum(CONTRACT_STATUSES).optional(),
  customer_id: idSchema("customer", "customer").optional(),
});

export const ContractResponse = z
  .object({
    id: z.string(),
    object: z.literal("contract"),
    number: z.string().meta({ description: "The contract (CCB) number, unique per tenant and environment.", example: "CCB-2026-000001" }),
    status: z.enum(CONTRACT_STATUSES).meta({
      description:
        "`active` once disbursed; `settled` when closed — its last installment paid (event `contract.closed`, reason `paid_off`) or a full settlement completed (reason `settled`); `assigned` once sold in a portfolio assignment (closes as `settled` when paid off; `active` again when the originator buys it back, event `contract.bought_back`); `written_off`; `canceled` (withdrawal right).",
    }),
    proposal_id: z.string(),
    customer_id: z.string(),
    product: z.string(),
    amortization: z.string(),
    principal: z.number().int(),
    released_amount: z.number().int(),
    monthly_rate: z.string(),
    term: z.number().int().meta({ description: "Installments as contracted. A partial settlement reschedules the installments (GET …/installments; the settlement's `reschedule`), not this." }),
    disbursement_date: z.string(),
    first_due_date: z.string(),
    installment_amount: z.number().int().meta({ description: "The installment as contracted, integer centavos. After a partial settlement the installments carry their new amounts; this stays." }),
    amount_paid: z.number().int().meta({ description: "Received on the installments so far, integer centavos." }),
    assignment_id: z.string().nullable().meta({ description: "`assigned`: the portfolio assignment it was sold in (GET /v1/assignments/{id}); its later receipts are the assignee's. Cleared when the originator buys it back (its receipts the originator's again)." }),
    outstanding_balance: z.number().int().meta({ description: "What remains of the installments: their amounts less what was paid on them (0 once settled or canceled), integer centavos." }),
    credit_balance: z.number().int().meta({
      description:
        "The borrower's credit on this contract, integer centavos: money received beyond what was owed (an overpaid charge, a boleto paid twice). A payoff quote uses it (`credit_applied`); on a closed contract it is owed back to the borrower.",
    }),
    cet: z.object({ monthly_percent: z.string(), annual_percent: z.string() }),
    iof: z.object({ daily: z.number().int(), additional: z.number().int(), total: z.number().int(), financed: z.boolean() }),
    late_charges: LateChargesSchema,
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Contract" });
export type ContractResponse = z.infer<typeof ContractResponse>;
