import { z } from "zod";
import { dateSchema } from "@/lib/date-schema";
import { idSchema } from "@/lib/id-schema";
import { ListQuery } from "@/lib/pagination";
import { SETTLEMENT_STATUSES } from "./transitions";

// Payoff quotes and settlements (1.3.0).

const centavos = (description: string) => z.number().int().meta({ description: `${description} Integer centavos.` });

export const PayoffQuoteQuery = z.strictObject({
  date: dateSchema("The payoff date (YYYY-MM-DD): today or later, up to the contract's last due date or 30 days ahead, whichever is later. Default: today (Brasília).").optional(),
});
export type PayoffQuoteQuery = z.infer<typeof PayoffQuoteQuery>;

const QuoteLine = z.object({
  installment_id: z.string(),
  number: z.number().int(),
  due_date: z.string().meta({ description: "Its actual due date (after the contract's `due_date_rule`): due on or before the payoff date, it counts at face value." }),
  nominal_due_date: z.string().meta({
    description:
      "The end of the monthly period its interest was computed on (the due date before `due_date_rule` moved it off a weekend or holiday; after a partial settlement, the rescheduled periods): its present value is discounted to this date. On quotes stored with settlements made before this field existed, its `due_date` (they were discounted to it).",
  }),
  open_amount: centavos("What is still open of the installment's face amount."),
  present_value: centavos("Its value on the payoff date at the contract rate, discounted to `nominal_due_date` (face value when due on or before the payoff date, or when its nominal date has passed)."),
  discount: centavos("Interest removed for paying early: open_amount − present_value."),
  fine: centavos("Late fine due on the payoff date (installments already late)."),
  late_interest: centavos("Pro-rata late interest due on the payoff date."),
  total: centavos("present_value + fine + late_interest."),
});

export const PayoffQuoteResponse = z
  .object({
    object: z.literal("payoff_quote"),
    contract_id: z.string(),
    date: z.string(),
    monthly_rate: z.string().meta({ description: "The contract rate the installments are discounted at." }),
    installments: z.array(QuoteLine),
    outstanding_amount: centavos("Sum of the open amounts (face value)."),
    present_value: centavos("Sum of the present values."),
    discount: centavos("Sum of the discounts."),
    late_charges: centavos("Sum of fines and late interest."),
    credit_applied: centavos("The contract's credit (earlier overpayments) used against the total."),
    amount: centavos("What settles the contract on `date`: present value + late charges − credit."),
    valid_until: z.string().meta({ description: "End of `date` in Brasília (UTC−03:00), as an instant." }),
  })
  .meta({ id: "PayoffQuote" });
export type PayoffQuoteResponse = z.infer<typeof PayoffQuoteResponse>;

export const CreateSettlementBody = z
  .strictObject({
    contract_id: idSchema("contract", "contract").meta({ description: "An active, assigned or written-off contract of this environment (an assigned one's payoff is the assignee's money; a written-off one's debt is still the borrower's)." }),
    type: z.enum(["full", "partial"]).meta({ description: "`full`: pay everything at its present value and close the contract; `partial`: prepay part of the balance." }),
    date: dateSchema("The settlement date (YYYY-MM-DD), today or later and at most 30 days ahead (a pending settlement holds the contract: its credit, other settlements, assignment). Default: today (Brasília).").optional(),
    amount: z.number().int().min(1).max(100_000_000_00).optional().meta({ description: "`partial` only (required): the centavos prepaid, less than the full payoff amount." }),
    reduce: z.enum(["installment_amount", "term"]).optional().meta({ description: "`partial` only (required): lower every remaining installment, or keep it and shorten the term." }),
    payment_method: z
      .enum(["received", "boleto", "pix"])
      .meta({ description: "`received`: the funds already arrived outside the platform (TED, portability, payroll) — completed at once; `boleto` / `pix`: a charge for the amount is issued with it and paying it completes the settlement." }),
  })
  .superRefine((body, ctx) => {
    if (body.type === "partial") {
      if (body.amount === undefined) ctx.addIssue({ code: "custom", path: ["amount"], message: "Required for a partial settlement" });
      if (body.reduce === undefined) ctx.addIssue({ code: "custom", path: ["reduce"], message: "Required for a partial settlement" });
    } else {
      if (body.amount !== undefined) ctx.addIssue({ code: "custom", path: ["amount"], message: "Only for a partial settlement (a full one pays the quote)" });
      if (body.reduce !== undefined) ctx.addIssue({ code: "custom", path: ["reduce"], message: "Only for a partial settlement" });
    }
  })
  .meta({ id: "CreateSettlementBody" });
export type CreateSettlementBody = z.infer<typeof CreateSettlementBody>;

export const SettlementIdParams = z.strictObject({ id: idSchema("settlement", "settlement") });

export const CancelSettlementBody = z
  .strictObject({ reason: z.string().trim().min(1).max(500).optional().meta({ description: "Why it is canceled." }) })
  .meta({ id: "CancelSettlementBody" });

export const ListSettlementsQuery = ListQuery.extend({
  contract_id: idSchema("contract", "contract").optional(),
  status: z.enum(SETTLEMENT_STATUSES).optional(),
  type: z.enum(["full", "partial"]).optional(),
});
export type ListSettlementsQuery = z.infer<typeof ListSettlementsQuery>;

const ScheduleRow = z.object({
  installment_id: z.string(),
  number: z.number().int(),
  due_date: z.string(),
  nominal_due_date: z.string().meta({ description: "The end of the period its new amount was computed on: the installment's own `nominal_due_date` when the first remaining one's was after the settlement date; otherwise monthly from the first row's actual `due_date`. What a later payoff discounts it to. `due_date` is unchanged." }),
  opening_balance: z.number().int(),
  interest: z.number().int(),
  amortization: z.number().int(),
  payment: z.number().int(),
  closing_balance: z.number().int(),
});

export const SettlementResponse = z
  .object({
    id: z.string().meta({ example: "stl_01JDQ9A1B2C3D4E5F6G7H8J9K0" }),
    object: z.literal("settlement"),
    contract_id: z.string(),
    batch_id: z.string().nullable().meta({ description: "The batch it came from (POST /v1/settlements/batch), if any." }),
    type: z.enum(["full", "partial"]),
    status: z.enum(SETTLEMENT_STATUSES),
    date: z.string(),
    amount: centavos("What the borrower pays."),
    payment_method: z.enum(["received", "boleto", "pix"]),
    reduce: z.enum(["installment_amount", "term"]).nullable(),
    quote: PayoffQuoteResponse.meta({ description: "The payoff quote on `date` it was made from." }),
    reschedule: z
      .object({
        balance_before: centavos("The remaining installments' present value on `date`."),
        balance_after: centavos("What is left after the prepayment."),
        schedule: z.array(ScheduleRow).meta({ description: "The remaining installments after it, same numbers and due dates." }),
        dropped_installment_ids: z.array(z.string()).meta({ description: "`term`: installments that fall away (canceled)." }),
      })
      .nullable()
      .meta({ description: "`partial` only." }),
    charge_id: z.string().nullable().meta({ description: "`boleto` / `pix`: the charge that collects it." }),
    payment_id: z.string().nullable().meta({ description: "Once completed: the payment that settled it." }),
    cancel_reason: z.string().nullable(),
    completed_at: z.string().nullable(),
    canceled_at: z.string().nullable(),
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Settlement" });
export type SettlementResponse = z.infer<typeof SettlementResponse>;
