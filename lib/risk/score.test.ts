import { describe, expect, it } from "vitest";
import { maxAffordableInstallment, scoreRisk, wholeYears, type RiskInputs } from "./score";
import { AGE_BANDS, COMMITMENT_BANDS, REASON_CODES, REASON_TEXT } from "./scorecard";

// Table-driven: each case changes the baseline borrower in one respect and states the whole outcome.
// Baseline: 66 years old (+40), income R$ 4.500,00, installment R$ 300,00 (6.7% → +150),
// payroll-deducted (+120): 500 + 40 + 150 + 120 = 810, band A, approve.
const baseline: RiskInputs = {
  as_of: "2026-11-23",
  customer_kind: "person",
  birth_date: "1960-05-10",
  customer_since: "2026-11-23",
  monthly_income: 450000,
  other_monthly_debt: 0,
  installment_amount: 30000,
  term_months: 12,
  last_due_date: null,
  product: "inss_payroll",
  payroll_deducted: true,
  margin: null,
  history: { paid_installments: 0, paid_on_time: 0, overdue_now: 0, payroll_unpaid_now: 0, late_over_30_days_last_12_months: 0 },
};

type Case = [name: string, change: Partial<RiskInputs>, score: number, band: string, decision: string, codes: string[], maxAffordable?: number];

const cases: Case[] = [
  ["baseline", {}, 810, "A", "approve", ["borrower_age_61_to_75", "payroll_deduction", "income_commitment_low"], 157500],
  ["commitment 25–35%", { installment_amount: 140000 }, 700, "B", "approve", ["borrower_age_61_to_75", "income_commitment_moderate", "payroll_deduction"]],
  ["commitment 35–45% and above affordable", { installment_amount: 180000 }, 580, "C", "review", ["income_commitment_high", "installment_above_affordable", "borrower_age_61_to_75", "payroll_deduction"]],
  ["commitment above 45%: knock-out", { installment_amount: 250000 }, 440, "D", "decline", ["income_commitment_excessive", "borrower_age_61_to_75", "payroll_deduction"]],
  ["other debts count in the commitment", { other_monthly_debt: 150000 }, 580, "C", "review", ["income_commitment_high", "installment_above_affordable", "borrower_age_61_to_75", "payroll_deduction"], 7500],
  ["no declared income: review at most", { monthly_income: null }, 660, "C", "review", ["income_not_declared", "borrower_age_61_to_75", "payroll_deduction"], 0],
  ["recent default", { history: { paid_installments: 10, paid_on_time: 9, overdue_now: 0, payroll_unpaid_now: 0, late_over_30_days_last_12_months: 1 } }, 560, "C", "review", ["recent_default", "borrower_age_61_to_75", "payroll_deduction", "income_commitment_low"]],
  ["overdue now: knock-out", { history: { paid_installments: 10, paid_on_time: 10, overdue_now: 1, payroll_unpaid_now: 0, late_over_30_days_last_12_months: 0 } }, 810, "A", "decline", ["installment_overdue", "borrower_age_61_to_75", "payroll_deduction", "income_commitment_low"]],
  ["good history and established", { customer_since: "2025-01-02", history: { paid_installments: 6, paid_on_time: 6, overdue_now: 0, payroll_unpaid_now: 0, late_over_30_days_last_12_months: 0 } }, 890, "A", "approve", ["established_customer", "borrower_age_61_to_75", "good_payment_history", "payroll_deduction", "income_commitment_low"]],
  ["established just before 180 days", { customer_since: "2026-05-28" }, 810, "A", "approve", ["borrower_age_61_to_75", "payroll_deduction", "income_commitment_low"]],
  ["established at 180 days", { customer_since: "2026-05-27" }, 840, "A", "approve", ["established_customer", "borrower_age_61_to_75", "payroll_deduction", "income_commitment_low"]],
  ["margin covers the installment", { margin: { available_loan_margin: 100000, source_status: "active", blocked_for_loans: false } }, 870, "A", "approve", ["borrower_age_61_to_75", "margin_covers_installment", "payroll_deduction", "income_commitment_low"], 100000],
  ["insufficient margin: knock-out", { margin: { available_loan_margin: 29999, source_status: "active", blocked_for_loans: false } }, 810, "A", "decline", ["installment_above_affordable", "insufficient_margin", "borrower_age_61_to_75", "payroll_deduction", "income_commitment_low"], 29999],
  ["benefit blocked for loans", { margin: { available_loan_margin: 100000, source_status: "active", blocked_for_loans: true } }, 870, "A", "decline", ["benefit_blocked_for_loans", "borrower_age_61_to_75", "margin_covers_installment", "payroll_deduction", "income_commitment_low"], 100000],
  ["benefit ceased", { margin: { available_loan_margin: 0, source_status: "ceased", blocked_for_loans: false } }, 810, "A", "decline", ["installment_above_affordable", "insufficient_margin", "payroll_source_inactive", "borrower_age_61_to_75", "payroll_deduction", "income_commitment_low"], 0],
  ["young borrower", { birth_date: "2007-01-01" }, 730, "B", "approve", ["young_borrower", "payroll_deduction", "income_commitment_low"]],
  ["18th birthday is the day: of age", { birth_date: "2008-11-23" }, 730, "B", "approve", ["young_borrower", "payroll_deduction", "income_commitment_low"]],
  ["a minor (17): knock-out whatever the score", { birth_date: "2008-11-24" }, 730, "B", "decline", ["young_borrower", "borrower_under_18", "payroll_deduction", "income_commitment_low"]],
  ["a declared income of 0 is no income: every payment is excessive", { monthly_income: 0 }, 440, "D", "decline", ["income_commitment_excessive", "borrower_age_61_to_75", "payroll_deduction"], 0],
  ["paid, but not on time: no good-history points", { customer_since: "2025-01-02", history: { paid_installments: 8, paid_on_time: 5, overdue_now: 0, payroll_unpaid_now: 0, late_over_30_days_last_12_months: 0 } }, 840, "A", "approve", ["established_customer", "borrower_age_61_to_75", "payroll_deduction", "income_commitment_low"]],
  ["a payroll installment unpaid (the transfer may be late): review, not decline, and no good-history points", { history: { paid_installments: 6, paid_on_time: 6, overdue_now: 0, payroll_unpaid_now: 1, late_over_30_days_last_12_months: 0 } }, 810, "A", "review", ["payroll_installment_unpaid", "borrower_age_61_to_75", "payroll_deduction", "income_commitment_low"]],
  ["person without a birth date: review at most (the age limits cannot be checked)", { birth_date: null }, 770, "B", "review", ["birth_date_not_declared", "payroll_deduction", "income_commitment_low"]],
  ["21st birthday is the day", { birth_date: "2005-11-23" }, 770, "B", "approve", ["payroll_deduction", "income_commitment_low"]],
  ["over 85 at the last installment", { birth_date: "1945-01-01", term_months: 96 }, 750, "B", "decline", ["long_term", "age_at_term_end_above_limit", "payroll_deduction", "income_commitment_low"]],
  ["exactly 85 at the last installment", { birth_date: "1942-11-23", term_months: 12 }, 770, "B", "approve", ["payroll_deduction", "income_commitment_low"]],
  ["over 85 at the last installment of the schedule (a first due date months away), not at as_of + term", { birth_date: "1942-11-23", term_months: 24, last_due_date: "2029-01-23" }, 770, "B", "decline", ["age_at_term_end_above_limit", "payroll_deduction", "income_commitment_low"]],
  ["long term", { term_months: 84 }, 790, "B", "approve", ["long_term", "borrower_age_61_to_75", "payroll_deduction", "income_commitment_low"]],
  ["company: no age factors", { customer_kind: "company", birth_date: null, payroll_deducted: false, product: "personal_loan" }, 650, "C", "review", ["income_commitment_low"]],
  ["not payroll-deducted", { payroll_deducted: false, product: "personal_loan" }, 690, "B", "approve", ["borrower_age_61_to_75", "income_commitment_low"]],
  [
    "score is clamped at 0",
    { birth_date: "2007-01-01", payroll_deducted: false, installment_amount: 250000, term_months: 84, history: { paid_installments: 0, paid_on_time: 0, overdue_now: 0, payroll_unpaid_now: 0, late_over_30_days_last_12_months: 2 } },
    0,
    "E",
    "decline",
    ["recent_default", "income_commitment_excessive", "young_borrower", "long_term"],
  ],
];

describe("scoreRisk", () => {
  it.each(cases)("%s", (_name, change, score, band, decision, codes, maxAffordable) => {
    const result = scoreRisk({ ...baseline, ...change });
    expect({ score: result.score, band: result.band, decision: result.decision, codes: result.reasons.map((r) => r.code) }).toEqual({ score, band, decision, codes });
    if (maxAffordable !== undefined) expect(result.max_affordable_installment).toBe(maxAffordable);
  });

  it("gives each reason its text and points, and the score is base + points", () => {
    const result = scoreRisk({ ...baseline, customer_since: "2025-01-02", term_months: 84 });
    expect(result.reasons).toEqual([
      { code: "long_term", points: -20, description: "Term longer than 72 months" },
      { code: "established_customer", points: 30, description: "Customer for at least 180 days" },
      { code: "borrower_age_61_to_75", points: 40, description: "The borrower is 61 to 75 years old" },
      { code: "payroll_deduction", points: 120, description: "The installment is deducted from payroll or benefit before payment" },
      { code: "income_commitment_low", points: 150, description: "Debt payments take a small share of the monthly income" },
    ]);
    expect(result.score).toBe(500 - 20 + 30 + 40 + 120 + 150);
  });

  it("names every factor that moves the score: the score is the base plus the reasons' points (clamped)", () => {
    for (const [, change] of cases) {
      const result = scoreRisk({ ...baseline, ...change });
      const sum = 500 + result.reasons.reduce((total, r) => total + r.points, 0);
      expect(result.score).toBe(Math.min(1000, Math.max(0, sum)));
    }
    for (const band of [...COMMITMENT_BANDS, ...AGE_BANDS]) expect(band.points === 0 || band.reason !== null, JSON.stringify(band)).toBe(true);
  });

  it("is deterministic", () => {
    expect(scoreRisk(baseline)).toEqual(scoreRisk(structuredClone(baseline)));
  });

  it("has a text for every reason code", () => {
    for (const code of REASON_CODES) expect(REASON_TEXT[code].length).toBeGreaterThan(10);
  });
});

describe("maxAffordableInstallment", () => {
  it.each([
    [{ monthly_income: 100000, other_monthly_debt: 0, margin: null }, 35000],
    [{ monthly_income: 100001, other_monthly_debt: 0, margin: null }, 35000], // floors
    [{ monthly_income: 100000, other_monthly_debt: 40000, margin: null }, 0], // never negative
    [{ monthly_income: null, other_monthly_debt: 0, margin: null }, 0],
    [{ monthly_income: null, other_monthly_debt: 0, margin: { available_loan_margin: 12345, source_status: "active", blocked_for_loans: false } }, 12345],
    [{ monthly_income: 100000, other_monthly_debt: 5000, margin: { available_loan_margin: 40000, source_status: "active", blocked_for_loans: false } }, 30000],
  ] as const)("%j → %i", (input, expected) => {
    expect(maxAffordableInstallment(input)).toBe(expected);
  });
});

describe("wholeYears", () => {
  it.each([
    ["1960-05-10", "2026-05-09", 65],
    ["1960-05-10", "2026-05-10", 66],
    ["2004-02-29", "2026-02-28", 21],
    ["2004-02-29", "2026-03-01", 22],
  ])("%s → %s = %i", (from, to, years) => {
    expect(wholeYears(from, to)).toBe(years);
  });
});
