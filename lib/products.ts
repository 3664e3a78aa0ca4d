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

// Fee caps and CET ceilings (choices, not regulation; change them here):
// - INSS consignado: no fees at all. INSS rules forbid TAC and any other charge on the loan, and the
//   prestamista insurance may not be bundled. CET ceiling 45% a.a.: every loan at the 1.85% cap with a
//   first period of 20 days or more stays below it (worst: 1 installment, 20 days, 42.6%); what it rejects
//   is the flat 0.38% IOF annualized over a first period of a few days.
// - Crédito do Trabalhador: no TAC (forbidden for individuals since Res. CMN 3.518/2007), registration
//   (cadastro) ≤ 1%, insurance ≤ 5%. CET ceiling 100% a.a. (worst fee-free loan at the 3.99% cap: 88.9%).
// - Personal loan: TAC ≤ 5% for companies only (forbidden for individuals, as above: a PF simulation with an
//   origination fee is refused — lib/simulations/product-rules.ts), registration ≤ 3%, insurance ≤ 5%. CET
//   ceiling 250% a.a. (worst fee-free loan at the 8% cap: 215%): a 97% upfront fee (CET ≈ 3·10¹³%) or the
//   maximum fees on a one-month loan are refused.

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
    maxAnnualCet: "2.50",
  },
};

/** IOF rates (Decreto 6.306/2007 as amended; PJ daily rate per Decreto 12.499/2025 — unverified, keep here). */
export const IOF_RATES = {
  dailyRatePF: "0.000082",
  dailyRatePJ: "0.000082",
  additionalRate: "0.0038",
} as const;
