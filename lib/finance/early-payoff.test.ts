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

  // Σ 88.85/1.01^k (k = 1…11) + 88.83/1.01^12 = 999.9958845… → 1000.00 (mpmath): within the ½-centavo
  // interest-rounding bound of the schedule, see schedule.property.test.ts.
  it("on the disbursement date returns the principal", () => {
    expect(earlyPayoff({ monthlyRate: "0.01", payoffDate: "2025-01-15", installments: schedule }).amount).toBe(100000);
  });

  // After paying installment 6 on 2025-07-15: remaining 7…12 (5 × 88.85 + 88.83) discount to
  // 514.9092439… → 514.91 (mpmath), the schedule's closing balance after installment 6. (Was 514.92 /
  // last payment 88.84 before the interest rounding carried its remainder: month 6's exact interest
  // 5.9779 now charges 5.97 because the months before had already rounded up, see price-schedule.test.ts.)
  it("right after an installment returns the outstanding balance", () => {
    const remaining = schedule.slice(6);
    const result = earlyPayoff({ monthlyRate: "0.01", payoffDate: "2025-07-15", installments: remaining });
    expect(result.amount).toBe(51491);
    expect(schedule[5]?.closing_balance).toBe(51491);
    expect(result.discount).toBe(5 * 8885 + 8883 - 51491);
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

  // PV on the disbursement date differs from principal by less than ½ centavo before rounding
  // (see interestAccrual in schedule-setup.ts), so the rounded payoff is the principal ± 1.
  it("payoff on disbursement ≈ principal (property)", () => {
    fc.assert(
      fc.property(loanArb, systemArb, (loan, system) => {
        const rows = buildSchedule(system, loan);
        const { amount } = earlyPayoff({ monthlyRate: loan.monthlyRate, payoffDate: loan.disbursementDate, installments: rows });
        expect(Math.abs(amount - loan.principal)).toBeLessThanOrEqual(1);
      }),
      { numRuns: 60 },
    );
  });
});
