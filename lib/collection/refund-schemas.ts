import { z } from "zod";
import { dateSchema } from "@/lib/date-schema";
import { idSchema } from "@/lib/id-schema";
import { ListQuery } from "@/lib/pagination";

// Refunds of a contract's credit (POST /v1/refunds): money the borrower paid beyond what was owed, sent back.

export const REFUND_METHODS = ["pix", "ted", "other"] as const;

export const CreateRefundBody = z
  .strictObject({
    contract_id: idSchema("contract", "contract").meta({ description: "A contract of this environment with credit (`credit_balance` > 0), in any status." }),
    amount: z
      .number()
      .int()
      .min(1)
      .max(100_000_000_00)
      .optional()
      .meta({ description: "Centavos refunded, at most the contract's `credit_balance`. Default: all of it." }),
    method: z.enum(REFUND_METHODS).meta({ description: "How the money went back: `pix`, `ted`, or `other` (e.g. a payroll reversal)." }),
    reference: z
      .string()
      .trim()
      .min(1)
      .max(140)
      .optional()
      .meta({ description: "The transfer's own identifier as the bank gave it (Pix end-to-end id, TED number), for reconciliation." }),
    refunded_on: dateSchema("The day the money was sent (YYYY-MM-DD), not after today. Default: today (Brasília).").optional(),
  })
  .meta({ id: "CreateRefundBody" });
export type CreateRefundBody = z.infer<typeof CreateRefundBody>;

export const RefundIdParams = z.strictObject({ id: idSchema("refund", "refund") });

export const ListRefundsQuery = ListQuery.extend({ contract_id: idSchema("contract", "contract").optional() });
export type ListRefundsQuery = z.infer<typeof ListRefundsQuery>;

export const RefundResponse = z
  .object({
    id: z.string(),
    object: z.literal("refund"),
    contract_id: z.string(),
    assignment_id: z.string().nullable().meta({ description: "Refunded from an assigned contract's credit: the assignee's money." }),
    amount: z.number().int().meta({ description: "Refunded. Integer centavos." }),
    method: z.enum(REFUND_METHODS),
    reference: z.string().nullable(),
    credit_after: z.number().int().meta({ description: "The contract's `credit_balance` after this refund. Integer centavos." }),
    refunded_on: z.string().meta({ description: "YYYY-MM-DD." }),
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
  })
  .meta({ id: "Refund" });
export type RefundResponse = z.infer<typeof RefundResponse>;
