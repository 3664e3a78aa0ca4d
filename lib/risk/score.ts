import { addMonths, daysBetween } from "@/lib/finance";
import {
  AGE_BANDS,
  BANDS,
  BASE_SCORE,
  COMMITMENT_BANDS,
  CUTOFFS,
  ESTABLISHED_AFTER_DAYS,
  GOOD_HISTORY_MIN_PAID,
  KNOCK_OUTS,
  LONG_TERM_ABOVE_MONTHS,
  MAX_AGE_AT_TERM_END,
  MAX_COMMITMENT_BP,
  MIN_AGE,
  POINTS,
  REASON_TEXT,
  type Band,
  type Decision,
  type ReasonCode,
} from "./scorecard";

// The scorecard as a pure function: the same inputs always give the same score, band, decision and
// reasons (no clock, no I/O). lib/risk/assess.ts gathers the inputs and stores them with the result.

export type RiskInputs = {
  /** The assessment date (YYYY-MM-DD, America/Sao_Paulo). */
  as_of: string;
  customer_kind: "person" | "company";
  birth_date: string | null;
  customer_since: string;
  /** Declared monthly income (persons) or revenue (companies), centavos; null when not declared (0 is declared: none). */
  monthly_income: number | null;
  /** Other monthly debt payments, centavos: declared by the integrator, plus the largest open installment of each of
   *  our contracts still collected, plus the installment of each of the customer's other proposals under review,
   *  approved or signed (not yet contracts, but about to be). */
  other_monthly_debt: number;
  installment_amount: number;
  term_months: number;
  /** The last installment's due date when the terms give it (a proposal's or simulation's schedule); null for inline
   *  terms, when it is estimated as `as_of` plus the term. */
  last_due_date: string | null;
  product: string;
  payroll_deducted: boolean;
  /** The payroll margin from a margin query, when one applies. */
  margin: { available_loan_margin: number; source_status: string; blocked_for_loans: boolean } | null;
  history: {
    paid_installments: number;
    /** Paid by the due date, or the next business day when that was not one (Lei 7.089/1983). */
    paid_on_time: number;
    /** Unpaid past due + OVERDUE_GRACE_BUSINESS_DAYS (payroll-deducted contracts: once unpaid for over 30 days). */
    overdue_now: number;
    /** Unpaid on payroll-deducted contracts for at most 30 days: the transfer may be late — a review, not a decline. */
    payroll_unpaid_now: number;
    /** In the last 12 months: unpaid for over 30 days, or paid over 30 days late (not by a payroll transfer). */
    late_over_30_days_last_12_months: number;
  };
};

export type Reason = { code: ReasonCode; points: number; description: string };

export type RiskResult = {
  score: number;
  band: Band;
  decision: Decision;
  /** Every factor that moved the score or decided, most negative first. */
  reasons: Reason[];
  max_affordable_installment: number;
};

export function scoreRisk(input: RiskInputs): RiskResult {
  const reasons: Reason[] = [];
  // Every factor that moves the score is a reason with its points (a person can add them up to the score);
  // only the neutral bands (0 points) have none.
  const add = (code: ReasonCode | null, points: number) => {
    if (code !== null) reasons.push({ code, points, description: REASON_TEXT[code] });
  };

  const maxAffordable = maxAffordableInstallment(input);
  if (input.monthly_income === null) {
    add("income_not_declared", 0);
  } else {
    const debt = input.installment_amount + input.other_monthly_debt;
    // A declared income of 0 takes every payment as excessive.
    const ratioBp = input.monthly_income === 0 ? Number.POSITIVE_INFINITY : Math.ceil((debt * 10_000) / input.monthly_income);
    const band = COMMITMENT_BANDS.find((b) => ratioBp <= b.upToBp)!;
    add(band.reason, band.points);
    if (input.installment_amount > maxAffordable && band.reason !== "income_commitment_excessive") add("installment_above_affordable", 0);
  }

  if (input.customer_kind === "person" && input.birth_date === null) add("birth_date_not_declared", 0);
  if (input.customer_kind === "person" && input.birth_date !== null) {
    const age = wholeYears(input.birth_date, input.as_of);
    const band = AGE_BANDS.find((b) => age < b.below)!;
    add(band.reason, band.points);
    if (age < MIN_AGE) add("borrower_under_18", 0);
    const lastDue = input.last_due_date ?? addMonths(input.as_of, input.term_months);
    if (wholeYears(input.birth_date, lastDue) > MAX_AGE_AT_TERM_END) add("age_at_term_end_above_limit", 0);
  }

  if (input.payroll_deducted) add("payroll_deduction", POINTS.payrollDeduction);
  if (input.margin) {
    if (input.margin.source_status !== "active") add("payroll_source_inactive", 0);
    if (input.margin.blocked_for_loans) add("benefit_blocked_for_loans", 0);
    if (input.installment_amount <= input.margin.available_loan_margin) add("margin_covers_installment", POINTS.marginCovers);
    else add("insufficient_margin", 0);
  }

  const { history } = input;
  if (history.overdue_now > 0) add("installment_overdue", 0);
  if (history.payroll_unpaid_now > 0) add("payroll_installment_unpaid", 0);
  if (history.late_over_30_days_last_12_months > 0) add("recent_default", POINTS.recentDefault);
  else if (history.overdue_now === 0 && history.payroll_unpaid_now === 0 && history.paid_on_time >= GOOD_HISTORY_MIN_PAID) add("good_payment_history", POINTS.goodPaymentHistory);
  if (daysBetween(input.customer_since, input.as_of) >= ESTABLISHED_AFTER_DAYS) add("established_customer", POINTS.establishedCustomer);
  if (input.term_months > LONG_TERM_ABOVE_MONTHS) add("long_term", POINTS.longTerm);

  const total = BASE_SCORE + reasons.reduce((sum, r) => sum + r.points, 0);
  const score = Math.min(1000, Math.max(0, total));
  const band = BANDS.find((b) => score >= b.min)!.band;
  reasons.sort((a, b) => a.points - b.points || a.code.localeCompare(b.code));
  return { score, band, decision: decide(score, reasons), reasons, max_affordable_installment: maxAffordable };
}

function decide(score: number, reasons: Reason[]): Decision {
  const knockOuts = reasons.map((r) => KNOCK_OUTS[r.code]);
  if (knockOuts.includes("decline")) return "decline";
  const byScore: Decision = score >= CUTOFFS.approveFrom ? "approve" : score >= CUTOFFS.reviewFrom ? "review" : "decline";
  if (byScore === "approve" && knockOuts.includes("review")) return "review";
  return byScore;
}

/**
 * The largest installment the borrower can take: the income share all debts may use (MAX_COMMITMENT_BP)
 * minus the other debts, and never more than the available payroll margin. 0 when neither is known.
 */
export function maxAffordableInstallment(input: Pick<RiskInputs, "monthly_income" | "other_monthly_debt" | "margin">): number {
  const byIncome = input.monthly_income !== null ? Math.max(0, Math.floor((input.monthly_income * MAX_COMMITMENT_BP) / 10_000) - input.other_monthly_debt) : null;
  const byMargin = input.margin ? Math.max(0, input.margin.available_loan_margin) : null;
  if (byIncome === null) return byMargin ?? 0;
  return byMargin === null ? byIncome : Math.min(byIncome, byMargin);
}

/** Completed years from `from` to `to` (both YYYY-MM-DD): a birthday counts on its day. */
export function wholeYears(from: string, to: string): number {
  const [fy, fm, fd] = from.split("-").map(Number) as [number, number, number];
  const [ty, tm, td] = to.split("-").map(Number) as [number, number, number];
  return ty - fy - (tm < fm || (tm === fm && td < fd) ? 1 : 0);
}
