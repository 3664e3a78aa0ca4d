import { z } from "zod";
import { dateSchema } from "@/lib/date-schema";
import { idSchema } from "@/lib/id-schema";
import { ListQuery } from "@/lib/pagination";
import { CHARGE_STATUSES } from "./transitions";

// Collection resources (release 1.2.0).

const centavos = (description: string) => z.number().int().meta({ description: `${description} Integer centavos.` });

export const CreateChargeBody = z
  .strictObject({
    contract_id: idSchema("contract", "contract").meta({ description: "An active contract of this environment." }),
    installment_ids: z
      .array(idSchema("installment", "installment"))
      .min(1)
      .max(120)
      .refine((ids) => new Set(ids).size === ids.length, "Must not repeat an installment")
      .optional()
      .meta({ description: "Open installments of the contract to collect. Default: its oldest open installment." }),
    method: z.enum(["boleto", "pix"]),
    due_date: dateSchema("The charge's due date (YYYY-MM-DD), today or later and at most a year past the later of today and the installments' due dates (late charges run to it). Default: the latest of today and the installments' due dates.").optional(),
    pix: z
      .strictObject({
        kind: z.enum(["cob", "cobv"]).default("cobv").meta({ description: "`cob`: immediate charge that expires after `expires_in` seconds; `cobv`: charge with a due date (fine and interest after it)." }),
        expires_in: z.number().int().min(60).max(2_592_000).default(86_400).meta({ description: "`cob` only: seconds until it expires (default 86400, as in the BCB API)." }),
      })
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.pix && body.method !== "pix") ctx.addIssue({ code: "custom", path: ["pix"], message: "Only for method pix" });
  })
  .meta({ id: "CreateChargeBody" });
export type CreateChargeBody = z.infer<typeof CreateChargeBody>;

export const ChargeIdParams = z.strictObject({ id: idSchema("charge", "charge") });

export const ListChargesQuery = ListQuery.extend({
  contract_id: idSchema("contract", "contract").optional(),
  status: z.enum(CHARGE_STATUSES).optional(),
  method: z.enum(["boleto", "pix"]).optional(),
  due_from: dateSchema("Due on or after (YYYY-MM-DD).").optional(),
  due_to: dateSchema("Due on or before (YYYY-MM-DD).").optional(),
});
export type ListChargesQuery = z.infer<typeof ListChargesQuery>;

const BreakdownLine = z.object({
  installment_id: z.string(),
  number: z.number().int(),
  due_date: z.string(),
  fine: z.number().int(),
  late_interest: z.number().int(),
  interest: z.number().int(),
  principal: z.number().int(),
  total: z.number().int(),
});

export const ChargeResponse = z
  .object({
    id: z.string().meta({ example: "chg_01JDQ9A1B2C3D4E5F6G7H8J9K0" }),
    object: z.literal("charge"),
    status: z.enum(CHARGE_STATUSES),
    method: z.enum(["boleto", "pix"]),
    contract_id: z.string(),
    customer_id: z.string(),
    installment_ids: z.array(z.string()),
    settlement_id: z.string().nullable().meta({ description: "A settlement's charge: paying it in full completes the settlement." }),
    due_date: z.string(),
    amount: centavos("What the charge collects: the installments' open amounts, with late fine and pro-rata late interest up to the due date for those already late."),
    amount_paid: centavos("Received so far."),
    breakdown: z.array(BreakdownLine).meta({ description: "Per installment, what `amount` is made of." }),
    boleto: z
      .object({
        barcode: z.string().meta({ description: "The 44-digit FEBRABAN barcode." }),
        digitable_line: z.string().meta({ description: "The 47-digit linha digitável, formatted." }),
        due_date: z.string(),
        our_number: z.string().meta({ description: "Nosso número: the agreement and a sequence." }),
        bank_code: z.string(),
      })
      .nullable(),
    pix: z
      .object({
        kind: z.enum(["cob", "cobv"]),
        txid: z.string().meta({ description: "26–35 alphanumerics (BCB rules)." }),
        brcode: z.string().meta({ description: "The BR Code \"copia e cola\" (EMV, CRC-16)." }),
        qr_code: z.string().meta({ description: "The BR Code's QR code: a PNG data URL (`data:image/png;base64,…`, error correction M) for an <img> or an e-mail." }),
        location: z.string(),
        expires_at: z.string().nullable().meta({ description: "`cob`: when it expires; `cobv`: null (it has a due date)." }),
        fine_rate: z.string().nullable().meta({ description: "`cobv`: the fine the PSP adds after the due date (multa), decimal, on the whole amount — the contract's only when every installment falls due on the charge's due date, or before it without being late then (a weekend or holiday due date's grace), so that the PSP never asks more than is owed. \"0\" when an installment is late by the charge's due date (its fine is in the amount, or was paid with an earlier part), falls due after it, or the charge is a settlement's. null for `cob`." }),
        interest_rate_monthly: z.string().nullable().meta({ description: "`cobv`: late interest per month the PSP adds after the due date (juros), decimal; \"0\" as for `fine_rate`. null for `cob`." }),
      })
      .nullable(),
    beneficiary: z
      .object({
        name: z.string(),
        document: z.string().meta({ description: "CNPJ, 14 characters." }),
        city: z.string(),
        bank_code: z.string(),
        agreement: z.string(),
      })
      .nullable()
      .meta({ description: "Who is paid: the collection account the charge was issued under (GET /v1/collection-account)." }),
    payment_page_url: z.string().meta({
      description:
        "A printable page for the borrower (no credential needed: the URL is the capability) with the boleto's barcode image and linha digitável, or the Pix QR code and copia e cola. Served only on the address of the charge's environment.",
    }),
    paid_at: z.string().nullable(),
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Charge" });
export type ChargeResponse = z.infer<typeof ChargeResponse>;

export const SandboxPayBody = z
  .strictObject({
    amount: z.number().int().min(1).max(100_000_000_00).optional().meta({ description: "Integer centavos paid. Default: what is open on the charge." }),
    paid_on: dateSchema("The payment date (YYYY-MM-DD), from the charge's issue day to today (Brasília); late charges are computed to it. Default: today.").optional(),
  })
  .meta({ id: "SandboxPayBody" });
export type SandboxPayBody = z.infer<typeof SandboxPayBody>;

export const PaymentIdParams = z.strictObject({ id: idSchema("payment", "payment") });
export const ListPaymentsQuery = ListQuery.extend({
  contract_id: idSchema("contract", "contract").optional(),
  charge_id: idSchema("charge", "charge").optional(),
});
export type ListPaymentsQuery = z.infer<typeof ListPaymentsQuery>;

export const PaymentResponse = z
  .object({
    id: z.string(),
    object: z.literal("payment"),
    contract_id: z.string(),
    charge_id: z.string().nullable(),
    source: z.string().meta({
      description:
        "boleto, pix, inss_repasse, private_payroll_repasse, settlement (funds received outside the platform), or contract_credit (no new money: the contract's credit paying installments that fell due; `amount` is the credit used).",
    }),
    settlement_id: z.string().nullable().meta({ description: "The settlement this payment completed, if any." }),
    assignment_id: z.string().nullable().meta({ description: "Received on an assigned contract: the assignee's money (GET /v1/assignments/{id})." }),
    amount: centavos("Received."),
    allocations: z
      .array(
        z.object({
          installment_id: z.string(),
          number: z.number().int().optional(),
          fine: z.number().int().optional(),
          late_interest: z.number().int().optional(),
          interest: z.number().int().optional(),
          principal: z.number().int().optional(),
          discount: z.number().int().optional().meta({ description: "Settlements: interest removed for paying early (CDC art. 52 §2)." }),
          total: z.number().int(),
        }),
      )
      .meta({ description: "How it was applied: oldest installment first; fine, late interest, interest, principal. A full settlement: each installment at its present value (`discount`); a partial one (prepayment): empty, see the settlement's `reschedule`." }),
    credit: centavos("Beyond every open installment: kept as the contract's credit."),
    credit_applied: centavos(
      "The contract's credit (earlier overpayments) its allocations used beside its own amount: a full settlement's payoff nets it, a partial one counts what its charge received before. The allocations add up to `amount + credit_applied - credit`. 0 for `source: contract_credit`, whose `amount` is itself the credit used.",
    ),
    competence: z.string().nullable(),
    paid_at: z.string(),
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
  })
  .meta({ id: "Payment" });
export type PaymentResponse = z.infer<typeof PaymentResponse>;

export const SandboxPayResponse = z.object({ charge: ChargeResponse, payment: PaymentResponse }).meta({ id: "SandboxPayResult" });

export const ProviderNotificationResponse = z
  .object({ received: z.literal(true), replayed: z.boolean().meta({ description: "true when this event_id was already applied." }), payment: PaymentResponse })
  .meta({ id: "ProviderNotificationResult" });
