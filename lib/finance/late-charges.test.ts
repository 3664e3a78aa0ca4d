import { describe, expect, it } from "vitest";
import { isLate, lateCharges, latestLateDueDate } from "./late-charges";

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

  // Lei 7.089/1983: an amount due on a weekend or holiday paid on the next business day owes nothing more; paid later,
  // the delay counts from the due date itself.
  it("charges nothing for a due date on a weekend until the next business day has passed, then counts from the due date", () => {
    const saturday = { ...base, dueDate: "2026-03-07" };
    for (const asOf of ["2026-03-07", "2026-03-08", "2026-03-09"]) {
      expect(lateCharges({ ...saturday, asOf })).toMatchObject({ fine: 0, late_interest: 0, total: 100000, days_late: 0 });
    }
    // Tuesday: 3 days late — 1000.00 × 1% × 3/30 = 1.00.
    expect(lateCharges({ ...saturday, asOf: "2026-03-10" })).toMatchObject({ fine: 2000, late_interest: 100, total: 102100, days_late: 3 });
  });

  it("carries the grace over holidays: due on Carnival Monday 2026, paid on Ash Wednesday it is on time", () => {
    const carnival = { ...base, dueDate: "2026-02-16" };
    expect(lateCharges({ ...carnival, asOf: "2026-02-18" })).toMatchObject({ fine: 0, days_late: 0 });
    expect(lateCharges({ ...carnival, asOf: "2026-02-19" })).toMatchObject({ fine: 2000, late_interest: 100, days_late: 3 });
  });

  it("carries the grace over the year's last business day, when banks do not open: due 31 Dec 2026, paid Mon 4 Jan 2027 it is on time", () => {
    const base = { amount: 100000, fineRate: "0.02", monthlyLateInterestRate: "0.01", dueDate: "2026-12-31" };
    expect(lateCharges({ ...base, asOf: "2027-01-04" })).toMatchObject({ fine: 0, late_interest: 0, days_late: 0, total: 100000 });
    expect(lateCharges({ ...base, asOf: "2027-01-05" })).toMatchObject({ fine: 2000, late_interest: 167, days_late: 5 }); // 1000.00 × 1% × 5/30 = 1.666… → 1.67
  });

  it("counts late interest from the day it was last reckoned when given, the fine still by the due date", () => {
    expect(lateCharges({ ...base, accruedThrough: "2026-01-25", asOf: "2026-02-09" })).toMatchObject({ fine: 2000, late_interest: 500, days_late: 30 });
  });
});

describe("isLate / latestLateDueDate", () => {
  it("is late from the day after a business due date", () => {
    expect([isLate("2026-03-04", "2026-03-04"), isLate("2026-03-04", "2026-03-05")]).toEqual([false, true]);
  });

  it("the latest late due date is the business day before: Friday on a Monday, Thursday before Good Friday's weekend", () => {
    expect(latestLateDueDate("2026-03-09")).toBe("2026-03-06");
    expect(latestLateDueDate("2026-04-06")).toBe("2026-04-02"); // Good Friday 2026-04-03
    expect([isLate("2026-04-03", "2026-04-06"), isLate("2026-04-05", "2026-04-06"), isLate("2026-04-05", "2026-04-07")]).toEqual([false, false, true]);
  });
});
