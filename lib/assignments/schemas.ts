import { z } from "zod";
import { dateSchema } from "@/lib/date-schema";
import { idSchema } from "@/lib/id-schema";
import { ListQuery } from "@/lib/pagination";
import { ASSIGNMENT_STATUSES } from "./transitions";

// Portfolio assignment (cessão de carteira, 1.4.0).

export const MAX_ASSIGNMENT_CONTRACTS = 1000;
/** Why a contract left a pending offer (./leave-offer.ts): a settlement of it was requested, or it was paid off. */
export const REMOVAL_REASONS = ["settlement", "paid_off"] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];
const centavos = (description: string) => z.number().int().meta({ description: `${description} Integer centavos.` });

export const CreateAssignmentBody = z
  .strictObject({
    assignee: z
      .strictObject({
        name: z.string().trim().min(1).max(200).meta({ description: "The assignee (cessionário): legal name.", example: "Fundo Alfa FIDC" }),
        document: z.string().trim().min(14).max(18).meta({ description: "The assignee's CNPJ (numeric or alphanumeric), with or without punctuation; check digits validated.", example: "11.222.333/0001-81" }),
      })
      .meta({ description: "Who buys the contracts." }),
    contract_ids: z
      .array(idSchema("contract", "contract"))
      .min(1)
      .max(MAX_ASSIGNMENT_CONTRACTS)
      .refine((ids) => new Set(ids).size === ids.length, "Must not repeat a contract")
      .meta({ description: `Active contracts of this environment, 1–${MAX_ASSIGNMENT_CONTRACTS}; none in another pending or settled assignment, none with a pending settlement, none still in the borrower's 7-day withdrawal period.` }),
    settlement_date: dateSchema("When the assignee pays (YYYY-MM-DD), from today to 30 days ahead; prices are present values on it. A contract whose borrower settles it (full or partial) or pays it off before then leaves the offer (event `assignment.contract_removed`). Default: today (Brasília).").optional(),
    discount_rate: z
      .string()
      .trim()
      .regex(/^(0(\.\d{1,8})?|1(\.0{1,8})?)$/, 'Must be a rate from 0 to 1 with up to 8 decimals, e.g. "0.0150"')
      .optional()
      .meta({ description: "Monthly discount rate: each contract's price is the present value of its open installments at this rate on `settlement_date`. Send this or `price`." }),
    price: z
      .number()
      .int()
      .min(1)
      .max(100_000_000_000_00)
      .optional()
      .meta({ description: "The total the assignee pays, integer centavos, shared among the contracts in proportion to their open face value (largest remainder, so the parts add up). Send this or `discount_rate`." }),
  })
  .superRefine((body, ctx) => {
    if ((body.discount_rate === undefined) === (body.price === undefined)) ctx.addIssue({ code: "custom", path: ["discount_rate"], message: "Send exactly one of discount_rate and price" });
  })
  .meta({ id: "CreateAssignmentBody" });
export type CreateAssignmentBody = z.infer<typeof CreateAssignmentBody>;

export const AssignmentIdParams = z.strictObject({ id: idSchema("assignment", "assignment") });
export const CancelAssignmentBody = z.strictObject({ reason: z.string().trim().min(1).max(500).optional() }).meta({ id: "CancelAssignmentBody" });
export const DeclineAssignmentBody = z
  .strictObject({ reason: z.string().trim().min(3).max(500).meta({ description: "Why the assignee declined the offer (3–500 characters, trimmed).", example: "The assignee's credit committee did not approve the portfolio" }) })
  .meta({ id: "DeclineAssignmentBody" });
export type DeclineAssignmentBody = z.infer<typeof DeclineAssignmentBody>;
export const BuybackAssignmentBody = z
  .strictObject({
    contract_ids: z
      .array(idSchema("contract", "contract"))
      .min(1)
      .max(MAX_ASSIGNMENT_CONTRACTS)
      .refine((ids) => new Set(ids).size === ids.length, "Must not repeat a contract")
      .meta({ description: `Contracts of this settled assignment still \`assigned\` to it, 1–${MAX_ASSIGNMENT_CONTRACTS}, none repeated.` }),
    reason: z.string().trim().min(3).max(500).meta({ description: "Why the originator buys them back (3–500 characters, trimmed): a defect or fraud found, the coobrigação.", example: "Fraud found in the borrower's documents" }),
    price: z
      .number()
      .int()
      .min(0)
      .max(100_000_000_000_00)
      .optional()
      .meta({
        description:
          "What the originator pays the assignee for them in all, integer centavos, shared among the contracts in proportion to their open face value (largest remainder). " +
          "Default: each contract at the present value of its open installments today, at the assignment's `discount_rate` when it was priced by one, else at the contract's own monthly rate.",
      }),
  })
  .meta({ id: "BuybackAssignmentBody" });
export type BuybackAssignmentBody = z.infer<typeof BuybackAssignmentBody>;
export const ListAssignmentsQuery = ListQuery.extend({ status: z.enum(ASSIGNMENT_STATUSES).optional() });
export type ListAssignmentsQuery = z.infer<typeof ListAssignmentsQuery>;

/** One contract of an assignment, as `contracts` of the assignment embeds it and `GET /v1/assignments/{id}/contracts`
 *  lists it. */
export const AssignmentContractResponse = z.object({
  contract_id: z.string(),
  face_value: z.number().int(),
  price: z.number().int(),
  bought_back_at: z.string().nullable().meta({ description: "When the originator bought it back (POST /v1/assignments/{id}/buyback); null while it is the assignee's." }),
  buyback_price: z.number().int().nullable().meta({ description: "What the originator paid the assignee for it, integer centavos; null unless bought back." }),
  buyback_reason: z.string().nullable().meta({ description: "Why it was bought back; null unless bought back." }),
});
export type AssignmentContractResponse = z.infer<typeof AssignmentContractResponse>;
/** `GET /v1/assignments/{id}/contracts`: the standard `limit` / `cursor`. */
export const ListAssignmentContractsQuery = ListQuery;
export type ListAssignmentContractsQuery = z.infer<typeof ListAssignmentContractsQuery>;

export const AssignmentResponse = z
  .object({
    id: z.string().meta({ example: "asg_01JDQ9F1G2H3J4K5M6N7P8Q9R0" }),
    object: z.literal("assignment"),
    status: z.enum(ASSIGNMENT_STATUSES).meta({ description: "`pending` → `settled`, `canceled` or `declined` (by the assignee); `settled` → `bought_back` once the originator bought every contract back." }),
    assignee: z.object({ name: z.string(), document: z.string().meta({ description: "CNPJ, normalized." }) }),
    settlement_date: z.string(),
    pricing: z.object({ method: z.enum(["discount_rate", "price"]), discount_rate: z.string().nullable() }),
    face_value: centavos("The contracts' open face value (those still in the offer: a contract that left it is no longer counted)."),
    price: centavos("What the assignee pays: the sum of the listed contracts' prices (a contract that left the offer takes its price, or its share of a total `price`, with it)."),
    discount: centavos("face_value − price."),
    contract_count: z.number().int(),
    bought_back: z
      .object({
        count: z.number().int().meta({ description: "How many of its contracts the originator bought back." }),
        amount: centavos("What the originator paid the assignee for them (the sum of their `buyback_price`)."),
      })
      .meta({ description: "The contracts bought back from a settled assignment (recompra); counted in `contract_count`, `face_value` and `price` still — they were sold." }),
    contracts: z.array(AssignmentContractResponse).meta({ description: "Per contract: open face value and price. A contract that left the offer while it was pending (its borrower settled or paid it off: event `assignment.contract_removed`) is not listed; one bought back by the originator is, with `bought_back_at`, `buyback_price` and `buyback_reason`." }),
    cancel_reason: z.string().nullable(),
    settled_at: z.string().nullable(),
    canceled_at: z.string().nullable(),
    decline_reason: z.string().nullable().meta({ description: "`declined`: why the assignee declined the offer." }),
    declined_at: z.string().nullable(),
    bought_back_at: z.string().nullable().meta({ description: "`bought_back`: when its last contract was bought back." }),
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Assignment" });
export type AssignmentResponse = z.infer<typeof AssignmentResponse>;
