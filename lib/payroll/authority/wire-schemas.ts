import { z } from "zod";

// The payroll authority's wire format (docs/payroll-authority-protocol.md): what its answers must look like
// before anything of them is used. A body that does not parse is the authority's fault: 502
// `authority_bad_response`, never a 500 of ours.

const centavos = z.number().int().min(0);
const instant = z.string().datetime({ offset: true });

export const TokenAnswer = z.object({
  access_token: z.string().min(1),
  token_type: z.string().regex(/^bearer$/i),
  expires_in: z.number().int().positive(),
});

export const MarginQueryAnswer = z.object({
  query_id: z.string().min(1).max(100),
  margin_base: centavos,
  margins: z
    .array(
      z.object({
        kind: z.enum(["loan", "credit_card", "benefit_card"]),
        share: z.string().regex(/^0\.\d{1,4}$/),
        total: centavos,
        used: centavos,
        reserved: centavos,
        available: z.number().int(),
      }),
    )
    .min(1),
  source_type: z.string().min(1).max(50),
  source_status: z.enum(["active", "blocked", "suspended", "ceased"]),
  blocks: z.array(z.object({ code: z.string().min(1).max(100), description: z.string().max(500) })),
  paying_institution: z.object({ code: z.string().min(1).max(20), name: z.string().min(1).max(200) }),
  existing_loans: z.array(
    z.object({
      lender: z.string().min(1).max(200),
      contract_number: z.string().min(1).max(100),
      installment_amount: centavos,
      remaining_installments: z.number().int().min(0),
    }),
  ),
  valid_until: instant,
});

export const ReservationAnswer = z.object({
  reservation_id: z.string().min(1).max(100),
  status: z.literal("reserved"),
  expires_at: instant,
});

export const EndorsementAnswer = z.object({
  endorsement_id: z.string().min(1).max(100),
  status: z.literal("endorsed"),
  endorsed_at: instant,
});

/** A business refusal (HTTP 422): kept and shown to the integrator as the authority gave it. */
export const RefusalAnswer = z.object({
  error: z.object({ code: z.string().min(1).max(100), message: z.string().max(500) }),
});
