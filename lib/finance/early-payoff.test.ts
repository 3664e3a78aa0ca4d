import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { earlyPayoff } from "./early-payoff";
import { priceSchedule } from "./price-schedule";
import type { AdjustRule } from "./business-days";
import { scheduleNominalDates } from "./due-dates";
import { buildSchedule } from "./schedule";
import { loanArb, systemArb } from "./test-fixtures";

const schedule = priceSchedule({ principal: 100000, monthlyRate: "0.01", installments: 12, disbursementDate: "2025-01-15" });

describe("earlyPayoff", () => {
  // 1010.00 due 2025-01-31, paid off 15 days earlier at 1% a.m.: 1010 / 1.01^(15/30)
  // = 1004.98756… → 1004.99 (mpmath).
  it("discounts pro rata by days/30 inside a month", () => {
    const result = earlyPayoff({ monthlyRate: "0.01", payoffDate: "2025-01-16", installments: [{ due_date: "2025-01-31", payment: 101000 }] });
    expect(result).toEqual({ amount: 100499, face_value: 101000, discount: 501 });
  });

  // Σ 88.85/1.01^k (k = 1…11) + 88.84/1.01^12 = 1000.0047590… → 1000.00 (mpmath): within the
  // interest-rounding bound of the schedule, see schedule.property.test.ts.
  it("on the disbursement date returns the principal", () => {
    expect(earlyPayoff({ monthlyRate: "0.01", payoffDate: "2025-01-15", installments: schedule }).amount).toBe(100000);
  });

  // After paying installment 6 on 2025-07-15: remaining 7…12 (5 × 88.85 + 88.84) discount to
  // 514.9186643… → 514.92 (mpmath), the schedule's closing balance after installment 6 (month 6's
  // interest: 597.79 × 1% = 5.9779 → 5.98 on its row, amortization 82.87, closing 597.79 − 82.87 = 514.92).
  it("right after an installment returns the outstanding balance", () => {
    const remaining = schedule.slice(6);
    const result = earlyPayoff({ monthlyRate: "0.01", payoffDate: "2025-07-15", installments: remaining });
    expect(result.amount).toBe(51492);
    expect(schedule[5]?.closing_balance).toBe(51492);
    expect(result.discount).toBe(5 * 8885 + 8884 - 51492);
  });

  // A month-end contract (disbursed Jan 31: due Feb 28, Mar 31, Apr 30 …), paid off on Feb 28 right after installment
  // 1: the later due dates are 1, 2, 3 … whole periods away, as in the schedule. Counted forward from Feb 28 they were
  // 1 month + 3 days, 2 months + 2 days … and the quote came to R$ 14,86 less than the balance owed.
  it("on a month-end contract, right after an installment, returns the outstanding balance", () => {
    const monthEnd = priceSchedule({ principal: 1000000, monthlyRate: "0.0185", installments: 12, disbursementDate: "2026-01-31" });
    expect(monthEnd.slice(0, 3).map((r) => r.due_date)).toEqual(["2026-02-28", "2026-03-31", "2026-04-30"]);
    const result = earlyPayoff({ monthlyRate: "0.0185", payoffDate: "2026-02-28", installments: monthEnd.slice(1) });
    expect(Math.abs(result.amount - monthEnd[0]!.closing_balance)).toBeLessThanOrEqual(6); // ≤ ½ centavo per row of rounding
  });

  it("counts installments due on or before the payoff date at face value", () => {
    const result = earlyPayoff({
      monthlyRate: "0.01",
      payoffDate: "2025-03-01",
      installments: [
        { due_date: "2025-02-15", payment: 8885 },
        { due_date: "2025-03-01", payment: 8885 },
      ],
    });
    expect(result).toEqual({ amount: 17770, face_value: 17770, discount: 0 });
  });

  // PV on the disbursement date differs from principal by at most ½ centavo per installment (each row
  // rounds its interest on its own; see schedule.property.test.ts), so the rounded payoff is within
  // ⌈n/2⌉ centavos of the principal.
  it("payoff on disbursement ≈ principal (property)", () => {
    fc.assert(
      fc.property(loanArb, systemArb, (loan, system) => {
        const rows = buildSchedule(system, loan);
        const { amount } = earlyPayoff({ monthlyRate: loan.monthlyRate, payoffDate: loan.disbursementDate, installments: rows });
        expect(Math.abs(amount - loan.principal)).toBeLessThanOrEqual(Math.ceil(loan.installments / 2));
      }),
      { numRuns: 60 },
    );
  });
});

// Amounts run on nominal periods (schedule-setup.ts): the due date rule only moves the day an installment is paid, so a
// payoff discounts to the nominal due date. Disbursed 2026-01-15 (2026-02-15 is a Sunday before Carnival: `following`
// moves it to Wednesday the 18th, `preceding` to Friday the 13th). To the moved dates, day 0 came to 1,033,090
// (`following`) for a principal of 1,034,721 (payoffLines, rounding per line: 1,033,091; `preceding` 1,036,074).
describe("earlyPayoff to nominal due dates", () => {
  const principal = 1_034_721;
  const nominal = scheduleNominalDates("2026-01-15", 60);
  const rows = (rule: AdjustRule) => buildSchedule("price", { principal, monthlyRate: "0.08", installments: 60, disbursementDate: "2026-01-15", dueDateRule: rule });
  const withNominal = (rule: AdjustRule) => rows(rule).map((r, k) => ({ ...r, nominal_due_date: nominal[k]! }));

  it.each(["following", "preceding", "keep"] as const)("%s: the principal on the disbursement date, the balance right after installment 12", (rule) => {
    const schedule = withNominal(rule);
    expect(rows(rule).map((r) => r.payment)).toEqual(rows("keep").map((r) => r.payment));
    // Exact Σ within ½ centavo per row of the principal (the schedule's interest rounding), rounded once.
    expect(earlyPayoff({ monthlyRate: "0.08", payoffDate: "2026-01-15", installments: schedule }).amount).toBe(1_034_720);
    expect(earlyPayoff({ monthlyRate: "0.08", payoffDate: nominal[11]!, installments: schedule.slice(12) }).amount).toBe(schedule[11]!.closing_balance);
  });

  it("an installment whose nominal date has passed but whose moved date has not counts at face value", () => {
    const [first] = withNominal("following");
    expect(first).toMatchObject({ due_date: "2026-02-18", nominal_due_date: "2026-02-15" });
    expect(earlyPayoff({ monthlyRate: "0.08", payoffDate: "2026-02-16", installments: [first!] })).toMatchObject({ amount: first!.payment, discount: 0 });
    // Before the nominal date: discounted to it (one day at 8% a.m.), not to the 18th.
    const dayBefore = earlyPayoff({ monthlyRate: "0.08", payoffDate: "2026-02-14", installments: [first!] }).amount;
    expect(dayBefore).toBe(earlyPayoff({ monthlyRate: "0.08", payoffDate: "2026-02-14", installments: [{ due_date: "2026-02-15", payment: first!.payment }] }).amount);
  });

  it("without nominal dates discounts to the due dates (portfolio pricing on cash dates)", () => {
    const schedule = rows("following");
    expect(earlyPayoff({ monthlyRate: "0.08", payoffDate: "2026-01-15", installments: schedule }).amount).toBe(1_033_090); // 1,033,091 rounded per line
  });
});
