import { z } from "zod";
import { PayrollInput } from "@/lib/customers/schemas";
import { idSchema } from "@/lib/id-schema";
import { ListQuery } from "@/lib/pagination";
import { ENDORSEMENT_STATUSES, RESERVATION_STATUSES } from "./transitions";

// Payroll-loan authority resources (release 1.3.0; margin-query fields added in 1.4.0 are marked).

const SINCE_1_4 = " Added in 1.4.0.";
const centavos = (description: string) => z.number().int().meta({ description: `${description} Integer centavos.` });

export const SANDBOX_TRIGGER_TABLE =
  "Sandbox triggers (last four digits of the INSS benefit number or of the private registration): " +
  "…0001 insufficient margin (R$ 50,00 available); …0002 benefit blocked for loans; …0003 benefit ceased; " +
  "…0004 the authority lets the reservation lapse before its announced `expires_at`, so the endorsement is refused with `reservation_expired`; …0005 endorsement refused " +
  "(`beneficiary_consent_refused`); …0006 authority timeout (504 `authority_timeout`); …0007 authority unavailable " +
  "(503 `authority_unavailable`); …0008 margin query refused: the holder has not authorized this institution (422 " +
  "`margin_query_refused`, `refusal.code` `authorization_missing`); …0009 the reservation is refused (`refusal.code` `margin_unavailable`); " +
  "…0010 the reservation times out (504); …0011 the averbação times out (504); …0012 the authority is unavailable for the averbação " +
  "(503) — the query answering normally for each of the last four. Any other number answers normally, deterministically from the CPF and the number.";

export const CreateMarginQueryBody = z
  .strictObject({
    customer_id: idSchema("customer", "customer").meta({ description: "The borrower (a person with a CPF)." }),
    source: PayrollInput.optional().meta({
      description: "The benefit or employment link to query. Default: the customer's `payroll` link.",
    }),
  })
  .meta({ id: "CreateMarginQueryBody" });
export type CreateMarginQueryBody = z.infer<typeof CreateMarginQueryBody>;

export const MarginQueryIdParams = z.strictObject({ id: idSchema("marginQuery", "margin query") });
export const ListMarginQueriesQuery = ListQuery.extend({
  customer_id: idSchema("customer", "customer").optional().meta({ description: "Only this customer's queries." }),
});
export type ListMarginQueriesQuery = z.infer<typeof ListMarginQueriesQuery>;

const MarginView = z
  .object({
    kind: z.enum(["loan", "credit_card", "benefit_card"]).meta({ description: "loan (empréstimo), credit_card (RMC), benefit_card (RCC)." }),
    share: z.string().meta({ description: "Share of the margin base for this kind, decimal (\"0.35\").", example: "0.35" }),
    total: centavos("Margin of this kind."),
    used: centavos("Taken by existing deductions."),
    reserved: centavos("Held by reservations: the authority's at query time plus this platform's active reservations made from this query."),
    available: centavos("total − used − reserved."),
  })
  .meta({ id: "Margin" });

export const PayrollSourceView = z
  .object({
    type: z.enum(["inss", "private"]),
    benefit_number: z.string().optional(),
    employer_cnpj: z.string().optional(),
    registration: z.string().optional(),
  })
  .meta({ id: "PayrollSource" });

export const MarginQueryResponse = z
  .object({
    id: z.string().meta({ example: "mgq_01JD2Z6Q7X9V3K8M4N5P6R7S8T" }),
    object: z.literal("margin_query"),
    customer_id: z.string(),
    source: PayrollSourceView,
    authority: z.enum(["sandbox_simulator", "http"]).meta({ description: "Who answered: the sandbox simulator or the real authority." }),
    authority_query_id: z.string(),
    margin_base: centavos("The benefit (INSS) or available remuneration (private payroll) the shares apply to."),
    margins: z.array(MarginView).meta({ description: "INSS: loan 35%, credit_card 5%, benefit_card 5%. Private payroll: loan 35%." }),
    available_loan_margin: centavos("The loan margin still available now (after this platform's reservations from this query)."),
    source_type: z.string().meta({ description: "INSS benefit species (e.g. \"41\" old-age retirement) or the employment type (\"clt\")." }),
    source_status: z.enum(["active", "blocked", "suspended", "ceased"]),
    blocks: z.array(z.object({ code: z.string(), description: z.string() })).meta({ description: `Blocks on new deductions, e.g. \`blocked_for_loans\`.${SINCE_1_4}` }),
    paying_institution: z.object({ code: z.string(), name: z.string() }).meta({ description: `Where the benefit or salary is paid.${SINCE_1_4}` }),
    existing_loans: z
      .array(z.object({ lender: z.string(), contract_number: z.string(), installment_amount: z.number().int(), remaining_installments: z.number().int() }))
      .meta({ description: `Loans already deducted from this source.${SINCE_1_4}` }),
    valid_until: z.string().meta({ description: "After this instant the result may not back a proposal or reservation (query again)." }),
    status: z.enum(["valid", "expired"]).meta({ description: "`expired` once `valid_until` has passed." }),
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
  })
  .meta({ id: "MarginQuery", description: `A margin query's result as the authority answered it. ${SANDBOX_TRIGGER_TABLE}` });
export type MarginQueryResponse = z.infer<typeof MarginQueryResponse>;

export const CreateReservationBody = z
  .strictObject({
    margin_query_id: idSchema("marginQuery", "margin query").meta({ description: "A valid margin query; its customer and source are reserved against." }),
    installment_amount: z.number().int().min(1).max(100_000_000_00).meta({ description: "The monthly installment to reserve, integer centavos." }),
    term: z.number().int().min(1).max(96).meta({ description: "Number of monthly installments." }),
    kind: z.enum(["loan", "credit_card", "benefit_card"]).default("loan"),
  })
  .meta({ id: "CreateMarginReservationBody" });
export type CreateReservationBody = z.infer<typeof CreateReservationBody>;

export const ReservationIdParams = z.strictObject({ id: idSchema("marginReservation", "margin reservation") });
export const ListReservationsQuery = ListQuery.extend({
  status: z.enum(RESERVATION_STATUSES).optional(),
  proposal_id: idSchema("proposal", "proposal").optional(),
  customer_id: idSchema("customer", "customer").optional(),
});
export type ListReservationsQuery = z.infer<typeof ListReservationsQuery>;

const Refusal = z.object({ code: z.string(), message: z.string() }).meta({ id: "AuthorityRefusal", description: "The authority's reason, as it gave it." });

export const ReservationResponse = z
  .object({
    id: z.string().meta({ example: "mgr_01JD2Z6Q7X9V3K8M4N5P6R7S8T" }),
    object: z.literal("margin_reservation"),
    status: z.enum(RESERVATION_STATUSES),
    customer_id: z.string(),
    margin_query_id: z.string(),
    proposal_id: z.string().nullable().meta({ description: "The proposal whose submission made it (null for reservations made directly)." }),
    kind: z.enum(["loan", "credit_card", "benefit_card"]),
    installment_amount: z.number().int(),
    term: z.number().int(),
    authority_reservation_id: z.string().nullable(),
    refusal: Refusal.nullable(),
    expires_at: z.string().nullable().meta({ description: "Unless consumed by an endorsement before, the reservation expires then." }),
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "MarginReservation" });
export type ReservationResponse = z.infer<typeof ReservationResponse>;

export const CreateEndorsementBody = z
  .strictObject({
    proposal_id: idSchema("proposal", "proposal").meta({ description: "A signed payroll proposal with a reserved margin." }),
  })
  .meta({ id: "CreateEndorsementBody" });
export type CreateEndorsementBody = z.infer<typeof CreateEndorsementBody>;

export const EndorsementIdParams = z.strictObject({ id: idSchema("endorsement", "endorsement") });
export const ListEndorsementsQuery = ListQuery.extend({
  status: z.enum(ENDORSEMENT_STATUSES).optional(),
  proposal_id: idSchema("proposal", "proposal").optional(),
});
export type ListEndorsementsQuery = z.infer<typeof ListEndorsementsQuery>;

export const EndorsementResponse = z
  .object({
    id: z.string().meta({ example: "end_01JD2Z6Q7X9V3K8M4N5P6R7S8T" }),
    object: z.literal("endorsement"),
    status: z.enum(ENDORSEMENT_STATUSES).meta({
      description:
        "`submitted`: the authority was asked and its answer is not recorded yet (a lost answer: a retry of the request, or the worker, asks again); " +
        "`endorsed`, `refused` (see `refusal`); `terminating` → `terminated` once its contract closes or is withdrawn.",
    }),
    proposal_id: z.string(),
    reservation_id: z.string(),
    contract_number: z.string().meta({ description: "The CCB number registered with the authority; POST /v1/contracts issues the contract under it." }),
    authority_endorsement_id: z.string().nullable(),
    refusal: Refusal.nullable(),
    endorsed_at: z.string().nullable(),
    termination: z
      .object({
        reason: z.enum(["settled", "canceled"]).meta({ description: "`settled`: its contract was paid off or settled; `canceled`: withdrawn." }),
        attempts: z.number().int().meta({ description: "Calls made to the authority so far." }),
        last_error: z.string().nullable().meta({ description: "Why the last call failed (it is retried), or null." }),
        terminated_at: z.string().nullable().meta({ description: "When the authority confirmed it (`terminated`)." }),
      })
      .nullable()
      .meta({ description: "Once its contract closes or is withdrawn: ending the averbação at the authority (`terminating` → `terminated`)." }),
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Endorsement" });
export type EndorsementResponse = z.infer<typeof EndorsementResponse>;
