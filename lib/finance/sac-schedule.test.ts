import { describe, expect, it } from "vitest";
import { sacSchedule } from "./sac-schedule";
import { scheduleTotals } from "./schedule";

describe("sacSchedule", () => {
  // Classic SAC example: 100,000.00 in 10 months at 1% a.m. → amortization 10,000.00; interest
  // 1% of 100k, 90k, …, 10k = 1,000 + 900 + … + 100 = 5,500.00; payments 11,000.00 down to 10,100.00.
  it("100,000.00, 1% a.m., 10 months", () => {
    const rows = sacSchedule({ principal: 10_000_000, monthlyRate: "0.01", installments: 10, disbursementDate: "2025-03-10" });
    expect(rows.every((r) => r.amortization === 1_000_000)).toBe(true);
    expect(rows.map((r) => r.payment)).toEqual([
      1_100_000, 1_090_000, 1_080_000, 1_070_000, 1_060_000, 1_050_000, 1_040_000, 1_030_000, 1_020_000, 1_010_000,
    ]);
    expect(scheduleTotals(rows)).toEqual({ payment: 10_550_000, interest: 550_000, amortization: 10_000_000 });
    expect(rows.at(-1)).toMatchObject({ due_date: "2026-01-10", closing_balance: 0 });
  });

  it("puts the amortization residue in the last installment", () => {
    // 1000.00 / 3 = 333.33 (floor) ×2, last 333.34; interest 1.5% of 1000.00, 666.67, 333.34.
    const rows = sacSchedule({ principal: 100000, monthlyRate: "0.015", installments: 3, disbursementDate: "2025-01-31" });
    expect(rows.map((r) => r.amortization)).toEqual([33333, 33333, 33334]);
    expect(rows.map((r) => r.interest)).toEqual([1500, 1000, 500]); // 1000.005 → 1000, 500.01 → 500
    expect(rows.map((r) => r.due_date)).toEqual(["2025-02-28", "2025-03-31", "2025-04-30"]);
  });

  it("grace only changes the first interest", () => {
    // First due 3 months out: 1000.00 × (1.01³ − 1) = 30.301 → 30.30.
    const rows = sacSchedule({
      principal: 100000,
      monthlyRate: "0.01",
      installments: 4,
      disbursementDate: "2025-01-15",
      firstDueDate: "2025-04-15",
    });
    expect(rows.map((r) => r.interest)).toEqual([3030, 750, 500, 250]);
  });
});
