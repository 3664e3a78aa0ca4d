import { z } from "zod";
import { dateSchema } from "@/lib/date-schema";
import { idSchema } from "@/lib/id-schema";
import { ListQuery } from "@/lib/pagination";
import { decimal } from "@/lib/finance";
import { FEE_TYPES, PRODUCT_CODES, PRODUCTS } from "@/lib/products";

// Request and response schemas of /v1/simulations. Their descriptions are the API reference.

const MAX_AMOUNT = 1_000_000_000_00; // R$ 1 billion: a sanity bound; products set the real limits
const RATE = /^\d(\.\d{1,8})?$/;

const centavos = (description: string) => z.number().int().min(1).max(MAX_AMOUNT).meta({ description });
const rate = (description: string) =>
  z.string().trim().regex(RATE, 'Must be a decimal fraction with up to 8 decimals, e.g. "0.0185"').meta({ description });
const isoDate = dateSchema;

const percentOf = (fraction: string) => decimal.toString(decimal.mul(decimal.parse(fraction), decimal.fromInt(100)));

const productRules = PRODUCT_CODES.map((code) => {
  const p = PRODUCTS[code];
  return `\`${code}\`: ${p.minTermMonths}–${p.maxTermMonths} months, rate ≤ ${p.maxMonthlyRate} a.m., principal ${p.minAmount}–${p.maxAmount} centavos, annual CET ≤ ${percentOf(p.maxAnnualCet)}%, ${p.amortizations.join(" or ")}${p.payrollLink ? `, \`customer_id\` of a customer with a payroll link of type ${p.payrollLink} required` : ""}`;
}).join("; ");

const feeCaps = PRODUCT_CODES.map((code) => {
  const caps = PRODUCTS[code].maxFeeRates;
  return `\`${code}\`: ${FEE_TYPES.map((type) => (caps[type] === "0" ? `${type} not allowed` : `${type} ≤ ${percentOf(caps[type])}%`)).join(", ")}`;
}).join("; ");

export const SimulationFee = z
  .strictObject({
    type: z.enum(FEE_TYPES).meta({ description: "`origination` (TAC), `registration` (cadastro) or `insurance` (prestamista), one of each at most." }),
    amount: centavos("Amount in centavos (BRL)."),
    financed: z.boolean().meta({
      description: "true: added to the principal (bears interest, paid in the installments). false: paid by the borrower on the disbursement date (counts in `upfront_charges` and in the CET).",
    }),
  })
  .meta({ id: "SimulationFee" });

export const CreateSimulationBody = z
  .strictObject({
    product: z.enum(PRODUCT_CODES).meta({
      description: `Credit product; its rules are enforced: term, rate and principal (400 \`product_rule_violation\`), the payroll link (400 \`payroll_link_required\`), fee caps (400 \`fee_above_cap\`, see \`fees\`) and a ceiling on the annual CET (400 \`cet_above_ceiling\`, naming the terms that push it: the fees, or the IOF over a short first period or term). ${productRules}.`,
    }),
    requested_amount: centavos(
      "Net amount the borrower wants to receive, centavos (BRL). Financed charges (IOF when `iof_financed`, fees with `financed: true`) are added on top, so `released_amount` is never less than it. Without financed IOF it equals it. With financed IOF the principal is the smallest that releases at least it, and since each installment's IOF is rounded on its own row no principal may release it exactly: `released_amount` equals it in about 90% of Price and 98% of SAC loans and is a few centavos more in the rest (at most `term` + 1 centavos). Exactly one of `requested_amount` and `installment_amount`.",
    ).optional(),
    installment_amount: centavos(
      "Desired Price installment, centavos — e.g. the payroll margin: the principal is solved as the largest one none of whose installments exceeds it (the last, which absorbs rounding, included: `max_installment_amount` ≤ this). Price only. Exactly one of `requested_amount` and `installment_amount`.",
    ).optional(),
    term: z.number().int().min(1).max(600).meta({ description: "Number of monthly installments (the product caps it)." }),
    monthly_rate: rate('Required (or the deprecated `tax_rate`). Monthly contract interest rate as a decimal fraction string, up to 8 decimals: "0.0185" = 1.85% a.m. Compared exactly (no floating point) with the product cap.').optional(),
    tax_rate: rate("Deprecated since 1.3.0: use `monthly_rate`. Same meaning; accepted alone (the response then carries `Deprecation: @1701388800` and a `Warning` header; in a proposal's inline `terms` too) or together with an equal `monthly_rate`; a different value is a 400.")
      .optional()
      .meta({ deprecated: true }),
    amortization: z.enum(["price", "sac"]).default("price").meta({ description: "`price` (equal installments, default) or `sac` (constant amortization). Payroll products (`inss_payroll`, `private_payroll`) are Price only: the paying source deducts one fixed amount a month." }),
    disbursement_date: isoDate("Disbursement date; default: today in America/Sao_Paulo.").optional(),
    first_due_date: isoDate(
      "Nominal first due date; default: one month after disbursement. Must be after disbursement and at most 180 days later (a longer first period is a grace period: its interest compounds for months + days/30).",
    ).optional(),
    due_date_rule: z.enum(["following", "preceding", "keep"]).default("following").meta({
      description: "How due dates on weekends and national bank holidays move: `following` business day (default), `preceding`, or `keep`. Interest runs on the nominal monthly periods; IOF and CET use the actual dates.",
    }),
    borrower_kind: z.enum(["PF", "PJ"]).optional().meta({
      description: "Individual (`PF`) or company (`PJ`): picks the IOF daily rate. Default: from the customer when `customer_id` is given, else `PF`; must match the customer.",
    }),
    iof_financed: z.boolean().default(true).meta({
      description: "true (default): IOF is added to the principal (solved so the borrower receives `requested_amount`, or a few centavos more when no principal releases it exactly: see `requested_amount`). false: IOF is paid by the borrower on the disbursement date (`upfront_charges`).",
    }),
    fees: z
      .array(SimulationFee)
      .max(3)
      .default([])
      .meta({
        description: `Fees of the operation (TAC, cadastro, insurance). Each is capped per product as a share of \`released_amount\` (the credit received), financed or not; above it: 400 \`fee_above_cap\` naming \`fees.<index>.amount\`. ${feeCaps}. \`origination\` (TAC) is for companies only (\`borrower_kind: PJ\`; forbidden for individuals by Res. CMN 3.518/2007): for a PF, 400 \`fee_above_cap\` naming \`fees.<index>.type\`.`,
      }),
    customer_id: idSchema("customer", "customer")
      .optional()
      .meta({
        description:
          "The borrower (must exist in this environment: else 404). Optional for `personal_loan`; required for payroll products (`inss_payroll`, `private_payroll`), whose customer must have the matching payroll link (`payroll.type` `inss` / `private`): without it, 400 `payroll_link_required`.",
      }),
  })
  .superRefine((body, ctx) => {
    const amounts = [body.requested_amount, body.installment_amount].filter((v) => v !== undefined).length;
    if (amounts !== 1) {
      const message = "Send exactly one of requested_amount and installment_amount";
      ctx.addIssue({ code: "custom", path: [body.requested_amount === undefined ? "requested_amount" : "installment_amount"], message });
    }
    if (body.installment_amount !== undefined && body.amortization !== "price") {
      ctx.addIssue({ code: "custom", path: ["installment_amount"], message: "installment_amount needs amortization price (SAC installments are not equal)" });
    }
    if (body.monthly_rate === undefined && body.tax_rate === undefined) {
      ctx.addIssue({ code: "custom", path: ["monthly_rate"], message: "Required" });
    }
    if (body.monthly_rate !== undefined && body.tax_rate !== undefined && !sameRate(body.monthly_rate, body.tax_rate)) {
      ctx.addIssue({ code: "custom", path: ["tax_rate"], message: "tax_rate (deprecated) differs from monthly_rate; send monthly_rate only" });
    }
    const kinds = body.fees.map((f) => f.type);
    if (new Set(kinds).size !== kinds.length) ctx.addIssue({ code: "custom", path: ["fees"], message: "At most one fee of each type" });
  })
  // The rate is required, under its name or the deprecated one: said to generated clients too.
  .meta({ id: "CreateSimulationBody", anyOf: [{ required: ["monthly_rate"] }, { required: ["tax_rate"] }] });
export type CreateSimulationBody = z.infer<typeof CreateSimulationBody>;

// zod 4 runs object refinements even when a field failed its own check: an unparsable rate is that field's
// error (already reported), not a difference — and must never throw here.
function sameRate(a: string, b: string): boolean {
  try {
    return decimal.cmp(decimal.parse(a), decimal.parse(b)) === 0;
  } catch {
    return true;
  }
}

export const SimulationIdParams = z.strictObject({
  id: idSchema("simulation", "simulation").meta({ description: "The simulation's id." }),
});

export const ListSimulationsQuery = ListQuery.extend({
  customer_id: idSchema("customer", "customer").optional().meta({ description: "Only this customer's simulations." }),
});
export type ListSimulationsQuery = z.infer<typeof ListSimulationsQuery>;

const money = (description: string) => z.number().int().meta({ description });

export const ScheduleRow = z
  .object({
    number: z.number().int(),
    due_date: z.string().meta({ description: "Actual due date (after `due_date_rule`)." }),
    opening_balance: money("Balance before this installment, centavos."),
    interest: money(
      "Interest of the period, centavos: opening_balance × monthly_rate rounded half-up on this row (the first row uses its period's compound rate (1 + monthly_rate)^t − 1, t = whole months + days/30 from disbursement to the nominal first due date). Nothing is carried between rows.",
    ),
    amortization: money(
      "Principal repaid, centavos: payment − interest (Price) or principal ÷ term rounded down (SAC). The last row amortizes its whole opening balance, absorbing every rounding, so they sum to `principal`; negative when a long first period's interest exceeds the installment (capitalized).",
    ),
    payment: money("Installment = interest + amortization, centavos (Price: the same on every row but the last)."),
    closing_balance: money("Balance after this installment = opening_balance − amortization, centavos (0 after the last)."),
  })
  .meta({ id: "SimulationInstallment" });

export const IofRow = z
  .object({
    number: z.number().int().meta({ description: "The installment this row taxes." }),
    due_date: z.string().meta({ description: "Actual due date (after `due_date_rule`)." }),
    days: z.number().int().meta({ description: "Days from disbursement to the due date, capped at 365." }),
    base: money("Principal amortized in this installment, centavos (0 on a row whose amortization is negative; capitalized interest repaid later is not principal)."),
    iof: money("base × daily rate (0.0082% for PF and, since Decreto 12.499/2025, for PJ) × days, rounded half-up on this row, centavos."),
  })
  .meta({ id: "SimulationIofRow" });

export const SimulationResponse = z
  .object({
    id: z.string().meta({ example: "sim_01JD0000000000000000000000" }),
    object: z.literal("simulation"),
    product: z.enum(PRODUCT_CODES),
    amortization: z.enum(["price", "sac"]),
    term: z.number().int(),
    monthly_rate: z.string().meta({ description: "Monthly rate used, normalized decimal fraction." }),
    // Deprecated items keep working: clients written before 1.3.0 still read the rate under its old name.
    tax_rate: z.string().meta({ deprecated: true, description: "Deprecated since 1.3.0: use `monthly_rate`. Always equal to it." }),
    annual_rate: z.string().meta({ description: "Effective annual rate (1 + monthly_rate)^12 − 1, decimal fraction, 8 decimals." }),
    borrower_kind: z.enum(["PF", "PJ"]),
    requested_amount: z.number().int().nullable().meta({ description: "The request's net amount; null when solved from `installment_amount`." }),
    principal: money("Financed principal = net + financed fees + financed IOF, centavos."),
    released_amount: money(
      "Credit released to the borrower = principal − financed fees − financed IOF, centavos. From a `requested_amount`: that amount, or with financed IOF a few centavos more (about 10% of Price and 2% of SAC loans; at most `term` + 1 centavos).",
    ),
    upfront_charges: money("IOF (when not financed) + fees not financed: paid by the borrower on the disbursement date, centavos."),
    installment_amount: money("First installment, centavos (Price: every installment but the last, which absorbs rounding)."),
    max_installment_amount: money(
      "The largest installment of the schedule, centavos. Payroll products check the margin, reserve and endorse this amount: the paying source deducts one fixed amount a month.",
    ),
    iof: z
      .object({
        daily: money("Σ of the `iof_schedule` rows' `iof` (each rounded on its row), centavos."),
        additional: money("principal × 0.38% (PF) or 0.95% (PJ, Decreto 12.499/2025), half-up, centavos."),
        total: money("daily + additional."),
        financed: z.boolean(),
      })
      .meta({ description: "IOF-crédito on the principal (rates in the product configuration)." }),
    fees: z.array(SimulationFee),
    totals: z.object({
      payments: money("Σ installments, centavos."),
      interest: money("Σ interest, centavos."),
      amortization: money("Σ amortization = principal, centavos."),
    }),
    cet: z
      .object({
        monthly_percent: z.string().meta({ example: "2.27" }),
        annual_percent: z.string().meta({ example: "30.91" }),
      })
      .meta({
        description: "Custo Efetivo Total (Res. CMN 4.881/2020), percent with 2 decimals: the annual rate solving Σ installmentⱼ / (1+CET)^(daysⱼ/365) = released_amount − upfront_charges; monthly = (1+annual)^(1/12) − 1.",
      }),
    disbursement_date: z.string(),
    first_due_date: z.string().meta({ description: "Nominal first due date (the schedule's first row shows the adjusted one)." }),
    due_date_rule: z.enum(["following", "preceding", "keep"]),
    customer_id: z.string().nullable(),
    environment: z.enum(["sandbox", "production"]),
    created_at: z.string(),
    schedule: z.array(ScheduleRow),
    iof_schedule: z.array(IofRow).nullable().meta({
      description: "The daily IOF per installment, one row each; `iof.daily` is their sum. null only on simulations stored before the rows were shown.",
    }),
  })
  .meta({ id: "Simulation" });
export type SimulationResponse = z.infer<typeof SimulationResponse>;

export const SimulationSummary = SimulationResponse.omit({ schedule: true, iof_schedule: true }).meta({
  id: "SimulationSummary",
  description: "A simulation without its schedule and IOF rows (list items; GET by id for them).",
});
export type SimulationSummary = z.infer<typeof SimulationSummary>;
