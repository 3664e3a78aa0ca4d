// Credit products and their rules: the one place they are configured. Caps and limits change with
// regulation (e.g. CNPS sets the INSS cap), so they live here as data, never in code paths.
// Rates are monthly decimal strings; amounts integer centavos.

export const PRODUCT_CODES = ["inss_payroll", "private_payroll", "personal_loan"] as const;
export type ProductCode = (typeof PRODUCT_CODES)[number];

export const FEE_TYPES = ["origination", "registration", "insurance"] as const;
export type FeeType = (typeof FEE_TYPES)[number];

export type ProductRules = {
  code: ProductCode;
  name: string;
  maxTermMonths: number;
  minTermMonths: number;
  maxMonthlyRate: string;
  minAmount: number;
  maxAmount: number;
  /** Late payment defaults: fine once, and late interest per month pro rata die. */
  lateFineRate: string;
  lateMonthlyInterestRate: string;
  /** The customer's payroll link (customers.payroll.type) the installments are deducted from; null: none needed. */
  payrollLink: "inss" | "private" | null;
  /** Amortization systems offered. Payroll products deduct one fixed amount a month (the averbação's): Price only. */
  amortizations: readonly ("price" | "sac")[];
  /**
   * Cap of each fee as a fraction of the released amount (the credit the borrower receives), financed or
   * not: "0.05" = at most 5%; "0" = the fee is not allowed. Above it: 400 `fee_above_cap`.
   */
  maxFeeRates: Readonly<Record<FeeType, string>>;
  /** Ceiling of the annual CET (decimal fraction: "0.45" = 45% a.a.). Above it: 400 `cet_above_ceiling`. */
  maxAnnualCet: string;
};

// Fee caps and CET ceilings (choices, not regulation; change them here). Each ceiling is above the worst fee-free
// loan at the product's rate cap whose first due date — after its due-date rule — is 20 days or more after
// disbursement; searched over every disbursement day of 2026–2027, terms 1–12, nominal first periods of 20–30 days
// and the three rules: the worst is one installment whose due date `preceding` moves back (Carnival), e.g.
// disbursed 2026-01-23, nominal 25 days, paid on day 21 (interest for 25 days over 21).
// - INSS consignado: no fees at all. INSS rules forbid TAC and any other charge on the loan, and the
//   prestamista insurance may not be bundled. CET ceiling 45% a.a. (worst: 43.6%); what it rejects is the flat
//   IOF annualized over a first period of a few days (a nominal 20 days moved back to 16: 48.5%).
// - Crédito do Trabalhador: no TAC (forbidden for individuals since Res. CMN 3.518/2007), registration
//   (cadastro) ≤ 1%, insurance ≤ 5%. CET ceiling 100% a.a. (worst fee-free loan at the 3.99% cap: 94.1%).
// - Personal loan: TAC ≤ 5% for companies only (forbidden for individuals, as above: a PF simulation with an
//   origination fee is refused — lib/simulations/product-rules.ts), registration ≤ 3%, insurance ≤ 5%. CET
//   ceiling 300% a.a. (worst fee-free loan at the 8% cap: 235.7% for a person, 270.9% for a company, whose flat
//   IOF is 0.95%): a 97% upfront fee (CET ≈ 3·10¹³%) or the maximum fees on a one-month loan are refused.

export const PRODUCTS: Readonly<Record<ProductCode, ProductRules>> = {
  inss_payroll: {
    code: "inss_payroll",
    name: "INSS payroll-deductible loan (consignado INSS)",
    maxTermMonths: 96,
    minTermMonths: 1,
    maxMonthlyRate: "0.0185", // CNPS, March 2025
    minAmount: 100_00,
    maxAmount: 500_000_00,
    lateFineRate: "0.02",
    lateMonthlyInterestRate: "0.01",
    payrollLink: "inss",
    amortizations: ["price"],
    maxFeeRates: { origination: "0", registration: "0", insurance: "0" },
    maxAnnualCet: "0.45",
  },
  private_payroll: {
    code: "private_payroll",
    name: "Private payroll-deductible loan (Crédito do Trabalhador)",
    maxTermMonths: 96,
    minTermMonths: 1,
    maxMonthlyRate: "0.0399",
    minAmount: 100_00,
    maxAmount: 500_000_00,
    lateFineRate: "0.02",
    lateMonthlyInterestRate: "0.01",
    payrollLink: "private",
    amortizations: ["price"],
    maxFeeRates: { origination: "0", registration: "0.01", insurance: "0.05" },
    maxAnnualCet: "1.00",
  },
  personal_loan: {
    code: "personal_loan",
    name: "Personal loan",
    maxTermMonths: 60,
    minTermMonths: 1,
    maxMonthlyRate: "0.0800",
    minAmount: 100_00,
    maxAmount: 1_000_000_00,
    lateFineRate: "0.02",
    lateMonthlyInterestRate: "0.01",
    payrollLink: null,
    amortizations: ["price", "sac"],
    maxFeeRates: { origination: "0.05", registration: "0.03", insurance: "0.05" },
    maxAnnualCet: "3.00",
  },
};

/** IOF rates (Decreto 6.306/2007 as amended). Companies per Decreto 12.499/2025: 0.0082% a day (was 0.0041%) and
 *  0.95% flat (was 0.38%, as individuals still pay) — unverified against the decree's text, so kept here alone. Not
 *  modelled: the decree's lower daily rate for Simples Nacional companies borrowing up to R$ 30,000. */
export const IOF_RATES = {
  dailyRatePF: "0.000082",
  dailyRatePJ: "0.000082",
  additionalRatePF: "0.0038",
  additionalRatePJ: "0.0095",
} as const;
