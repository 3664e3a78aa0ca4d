// The scorecard: every weight, cut-off and reason text in one place. A change here is a new version:
// bump SCORECARD_VERSION so stored assessments keep naming the rules that decided them.
// Percentages are integer basis points (1% = 100 bp) so the comparisons are exact.

export const SCORECARD_VERSION = "2026-11.5";

/** Points start here; each factor adds or removes; the result is clamped to 0..1000. */
export const BASE_SCORE = 500;

export const BANDS = [
  { band: "A", min: 800 },
  { band: "B", min: 680 },
  { band: "C", min: 560 },
  { band: "D", min: 440 },
  { band: "E", min: 0 },
] as const;
export type Band = (typeof BANDS)[number]["band"];

/** approve at or above `approveFrom`; review from `reviewFrom`; below it decline. */
export const CUTOFFS = { approveFrom: 680, reviewFrom: 560 } as const;

export const DECISIONS = ["approve", "review", "decline"] as const;
export type Decision = (typeof DECISIONS)[number];

/**
 * Income commitment: (this installment + other monthly debt payments) / monthly income, in basis points.
 * The first band whose `upTo` is ≥ the ratio applies.
 */
export const COMMITMENT_BANDS = [
  { upToBp: 1500, points: 150, reason: "income_commitment_low" },
  { upToBp: 2500, points: 100, reason: "income_commitment_low" },
  { upToBp: 3500, points: 40, reason: "income_commitment_moderate" },
  { upToBp: 4500, points: -80, reason: "income_commitment_high" },
  { upToBp: Number.POSITIVE_INFINITY, points: -220, reason: "income_commitment_excessive" },
] as const;

/** Age in whole years on the assessment date. Ages at the end of the term above the limit are a knock-out. */
export const AGE_BANDS = [
  { below: 21, points: -40, reason: "young_borrower" },
  { below: 26, points: 0, reason: null },
  { below: 61, points: 60, reason: "borrower_age_26_to_60" },
  { below: 76, points: 40, reason: "borrower_age_61_to_75" },
  { below: Number.POSITIVE_INFINITY, points: 0, reason: null },
] as const;
export const MAX_AGE_AT_TERM_END = 85;
/** Below this age a person has no capacity to contract credit alone (Código Civil, arts. 3º–5º): a knock-out. */
export const MIN_AGE = 18;

export const POINTS = {
  payrollDeduction: 120, // the installment is deducted from a benefit or salary before the borrower sees it
  marginCovers: 60, // a valid margin query whose available loan margin covers the installment
  goodPaymentHistory: 50, // ≥ 6 installments paid on time with us, none overdue now, none over 30 days late in 12 months
  establishedCustomer: 30, // registered with the tenant for ≥ 180 days
  longTerm: -20, // more than 72 months
  recentDefault: -250, // an installment of ours more than 30 days late in the last 12 months
} as const;

export const GOOD_HISTORY_MIN_PAID = 6;
export const ESTABLISHED_AFTER_DAYS = 180;
export const LONG_TERM_ABOVE_MONTHS = 72;
export const RECENT_DEFAULT_DAYS_LATE = 30;
export const RECENT_DEFAULT_WINDOW_MONTHS = 12;
/** An installment counts as overdue for the scorecard only once it was already late this many business days ago: a
 *  boleto or Pix paid on its last day reaches us within the clearing time (as settlements allow 2 business days). */
export const OVERDUE_GRACE_BUSINESS_DAYS = 2;

/** The most of the monthly income all debt payments together may take (basis points): the affordability rule. */
export const MAX_COMMITMENT_BP = 3500;

export const REASON_CODES = [
  "income_commitment_low",
  "income_commitment_moderate",
  "income_commitment_high",
  "income_commitment_excessive",
  "income_not_declared",
  "birth_date_not_declared",
  "young_borrower",
  "borrower_under_18",
  "borrower_age_26_to_60",
  "borrower_age_61_to_75",
  "age_at_term_end_above_limit",
  "payroll_deduction",
  "margin_covers_installment",
  "insufficient_margin",
  "payroll_source_inactive",
  "benefit_blocked_for_loans",
  "recent_default",
  "installment_overdue",
  "payroll_installment_unpaid",
  "good_payment_history",
  "established_customer",
  "long_term",
  "installment_above_affordable",
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** What each code tells a person (staff, the borrower's agent, an auditor). */
export const REASON_TEXT: Readonly<Record<ReasonCode, string>> = {
  income_commitment_low: "Debt payments take a small share of the monthly income",
  income_commitment_moderate: "Debt payments would take between 25% and 35% of the monthly income",
  income_commitment_high: "Debt payments would take between 35% and 45% of the monthly income",
  income_commitment_excessive: "Debt payments would take more than 45% of the monthly income",
  income_not_declared: "The customer has no declared monthly income: a person must review",
  birth_date_not_declared: "The borrower's birth date is unknown, so the age limits cannot be checked: a person must review",
  young_borrower: "The borrower is younger than 21",
  borrower_under_18: `The borrower is younger than ${MIN_AGE}: a minor cannot contract credit (Código Civil, arts. 3º–5º)`,
  borrower_age_26_to_60: "The borrower is 26 to 60 years old",
  borrower_age_61_to_75: "The borrower is 61 to 75 years old",
  age_at_term_end_above_limit: `The borrower would be older than ${MAX_AGE_AT_TERM_END} at the last installment`,
  payroll_deduction: "The installment is deducted from payroll or benefit before payment",
  margin_covers_installment: "The available payroll margin covers the installment",
  insufficient_margin: "The available payroll margin does not cover the installment",
  payroll_source_inactive: "The benefit or employment link is not active (suspended or ceased)",
  benefit_blocked_for_loans: "The benefit is blocked for new loans",
  recent_default: "An installment was more than 30 days late in the last 12 months",
  installment_overdue: "The customer has an installment unpaid past its due date (beyond the payment clearing days) now",
  payroll_installment_unpaid:
    "An installment of a payroll-deducted contract is unpaid past its due date: the paying source may not have transferred it yet, or the deduction stopped — a person must review",
  good_payment_history: "At least six installments paid on time (by their due date, or the next business day when it was not one)",
  established_customer: "Customer for at least 180 days",
  long_term: "Term longer than 72 months",
  installment_above_affordable: "The installment is above the maximum affordable installment",
};

/**
 * Knock-outs decide regardless of points: `decline` ones reject; `review` ones cap the decision at review.
 * Which reason codes are knock-outs, and of which kind.
 */
export const KNOCK_OUTS: Readonly<Partial<Record<ReasonCode, "decline" | "review">>> = {
  insufficient_margin: "decline",
  payroll_source_inactive: "decline",
  benefit_blocked_for_loans: "decline",
  installment_overdue: "decline",
  borrower_under_18: "decline",
  age_at_term_end_above_limit: "decline",
  income_commitment_excessive: "decline",
  income_not_declared: "review",
  birth_date_not_declared: "review",
  installment_above_affordable: "review",
  payroll_installment_unpaid: "review",
};
