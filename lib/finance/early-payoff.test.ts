import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { earlyPayoff } from "./early-payoff";
import { priceSchedule } from "./price-schedule";
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
