import { z } from "zod";
import { idSchema } from "@/lib/id-schema";
import { INSTALLMENT_STATUSES } from "@/lib/installments/schemas";

// POST /v1/sandbox/repasse (release 1.4.0, sandbox only).

export const RepasseBody = z
  .strictObject({
    competence: z
      .string()
      .regex(/^(19\d\d|2[01]\d\d)-(0[1-9]|1[0-2])$/, "Must be a competence month YYYY-MM")
      .meta({ description: "The competence month (YYYY-MM) whose deducted installments the paying source transfers.", example: "2026-04" }),
    scenario: z.enum(["full", "partial", "none"]).meta({
      description: "full: every installment due in the month is paid; partial: `partial_percent` of each is paid; none: nothing arrives (they stay open, overdue after their due date).",
    }),
    partial_percent: z.number().int().min(1).max(99).default(50).meta({ description: "With `partial`: the share of each open installment paid, 1–99 (default 50), rounded down to the centavo." }),
    contract_ids: z
      .array(idSchema("contract", "contract"))
      .min(1)
      .max(500)
      .refine((ids) => new Set(ids).size === ids.length, "Must not repeat a contract")
      .optional()
      .meta({ description: "Only these payroll contracts (default: every active payroll contract of the environment)." }),
  })
  .meta({ id: "RepasseBody" });
export type RepasseBody = z.infer<typeof RepasseBody>;

export const RepasseContractResult = z.object({
  contract_id: z.string(),
  status: z.enum(["processed", "skipped"]),
  reason: z.enum(["already_processed", "contract_not_active", "no_installment_due"]).nullable().meta({
    description: "Why a contract was skipped: the month was already processed for it (its original amounts are shown), it is not active, or nothing of it falls due in the month.",
  }),
  amount_due: z.number().int().meta({ description: "Open on its installments of the month before the transfer, integer centavos." }),
  amount_paid: z.number().int().meta({ description: "Transferred and applied, integer centavos." }),
  installments: z.array(
    z.object({
      id: z.string(),
      number: z.number().int(),
      due_date: z.string(),
      amount_paid: z.number().int(),
      status: z.enum(INSTALLMENT_STATUSES).meta({ description: "After the transfer, as of today." }),
    }),
  ),
});
export type RepasseContractResult = z.infer<typeof RepasseContractResult>;

export const RepasseResponse = z
  .object({
    object: z.literal("repasse"),
    competence: z.string(),
    scenario: z.enum(["full", "partial", "none"]),
    partial_percent: z.number().int().nullable(),
    contracts: z.array(RepasseContractResult),
    totals: z.object({
      processed: z.number().int(),
      skipped: z.number().int(),
      amount_due: z.number().int(),
      amount_paid: z.number().int(),
    }),
  })
  .meta({ id: "Repasse" });
export type RepasseResponse = z.infer<typeof RepasseResponse>;
