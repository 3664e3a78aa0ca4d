// Credit products and their rules: the one place they are configured. Caps and limits change with
// regulation (e.g. CNPS sets the INSS cap), so they live here as data, never in code paths.
// Rates are monthly decimal strings; amounts integer centavos.

export const PRODUCT_CODES = ["inss_payroll", "private_payroll", "personal_loan"] as const;
export type ProductCode = (typeof PRODUCT_CODES)[number];

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
};

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
  },
};

/** IOF rates (Decreto 6.306/2007 as amended; PJ daily rate per Decreto 12.499/2025 — unverified, keep here). */
export const IOF_RATES = {
  dailyRatePF: "0.000082",
  dailyRatePJ: "0.000082",
  additionalRate: "0.0038",
} as const;
