import { describe, expect, it } from "vitest";
import { lateCharges } from "./late-charges";

const base = { amount: 100000, dueDate: "2026-01-10", fineRate: "0.02", monthlyLateInterestRate: "0.01" };

describe("lateCharges", () => {
  // 1000.00 paid 30 days late: fine 2% = 20.00; mora 1% × 30/30 = 10.00; total 1030.00.
  it("fine plus simple pro-rata late interest", () => {
    expect(lateCharges({ ...base, asOf: "2026-02-09" })).toEqual({
      principal_due: 100000,
      fine: 2000,
      late_interest: 1000,
      remunerative_interest: 0,
      total: 103000,
      days_late: 30,
    });
  });

  it("15 days: mora 1000.00 × 1% × 15/30 = 5.00", () => {
    expect(lateCharges({ ...base, asOf: "2026-01-25" })).toMatchObject({ fine: 2000, late_interest: 500, total: 102500 });
  });

  it("rounds each charge half-up: 333.33 × 1% × 7/30 = 0.7777… → 0.78", () => {
    expect(lateCharges({ ...base, amount: 33333, asOf: "2026-01-17" })).toMatchObject({ fine: 667, late_interest: 78 });
  });

  it("charges nothing on or before the due date", () => {
    for (const asOf of ["2026-01-10", "2026-01-01"]) {
      expect(lateCharges({ ...base, asOf })).toMatchObject({ fine: 0, late_interest: 0, total: 100000, days_late: 0 });
    }
  });

  // Remunerative interest keeps compounding pro rata: 1000.00 × (1.0185^(30/30) − 1) = 18.50.
  it("optionally adds the contract's remunerative interest", () => {
    const result = lateCharges({ ...base, asOf: "2026-02-09", remunerativeMonthlyRate: "0.0185" });
    expect(result).toMatchObject({ remunerative_interest: 1850, total: 104850 });
  });
});
