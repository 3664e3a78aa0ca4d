import { z } from "zod";
import { dateSchema } from "@/lib/date-schema";
import { idSchema } from "@/lib/id-schema";
import { ListQuery } from "@/lib/pagination";

const isoDate = dateSchema("Date");

export const INSTALLMENT_STATUSES = ["open", "overdue", "partially_paid", "paid", "canceled"] as const;
export type InstallmentStatus = (typeof INSTALLMENT_STATUSES)[number];

export const AsOfQuery = z.strictObject({
  as_of: isoDate.optional().meta({ description: "Date (YYYY-MM-DD, America/Sao_Paulo) for status and amount due; default today." }),
});

export const ListInstallmentsQuery = ListQuery.extend({
  contract_id: idSchema("contract", "contract").optional(),
  status: z.enum(INSTALLMENT_STATUSES).optional().meta({ description: "Status as of `as_of` (overdue = unpaid after its due date, or after the next business day when the due date is a weekend or national holiday: Lei 7.089/1983)." }),
  due_from: isoDate.optional().meta({ description: "Due on or after this date." }),
  due_to: isoDate.optional().meta({ description: "Due on or before this date." }),
  as_of: isoDate.optional(),
});

export const ContractInstallmentsQuery = ListInstallmentsQuery.omit({ contract_id: true });

export const InstallmentIdParams = z.strictObject({ id: idSchema("installment", "installment") });

export const AmountDue = z.object({
  as_of: z.string(),
  days_late: z.number().int(),
  outstanding: z.number().int().meta({ description: "Amount minus what was paid, centavos." }),
  fine: z.number().int(),
  late_interest: z.number().int(),
  total: z.number().int(),
});

export const InstallmentResponse = z
  .object({
    id: z.string(),
    object: z.literal("installment"),
    contract_id: z.string(),
    number: z.number().int(),
    due_date: z.string(),
    principal: z.number().int(),
    interest: z.number().int(),
    amount: z.number().int(),
    paid_amount: z.number().int(),
    status: z.enum(INSTALLMENT_STATUSES),
    paid_at: z.string().nullable(),
    amount_due: AmountDue.meta({ description: "What settles the installment on `as_of`: fine and pro-rata late interest per the product's rules." }),
    environment: z.enum(["sandbox", "production"]),
  })
  .meta({ id: "Installment" });
export type InstallmentResponse = z.infer<typeof InstallmentResponse>;
