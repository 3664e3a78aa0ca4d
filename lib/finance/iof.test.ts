import { describe, expect, it } from "vitest";
import { computeIof } from "./iof";
import { priceSchedule } from "./price-schedule";
import { IOF_2025 } from "./test-fixtures";

describe("computeIof", () => {
  // 1000.00 repaid in one installment after 30 days: 1000 × 0.000082 × 30 = 2.46; 1000 × 0.0038 = 3.80.
  it("single installment, individual", () => {
    const iof = computeIof(
      { borrower: "PF", principal: 100000, disbursementDate: "2025-01-01", installments: [{ due_date: "2025-01-31", amortization: 100000 }] },
      IOF_2025,
    );
    expect(iof).toEqual({ daily: 246, additional: 380, total: 626 });
  });

  it("company rate comes from config", () => {
    const input = { borrower: "PJ" as const, principal: 100000, disbursementDate: "2025-01-01", installments: [{ due_date: "2025-01-31", amortization: 100000 }] };
    expect(computeIof(input, IOF_2025).total).toBe(123 + 380); // 1000 × 0.000041 × 30 = 1.23
    expect(computeIof(input, { ...IOF_2025, dailyRatePJ: "0.000082" }).total).toBe(626);
  });

  // 500.00 at 400 days is capped at 365: 500 × 0.000082 × 365 = 14.965; 500.00 at 30 days = 1.23.
  // Summed exactly: 16.195 → 16.20 (half-up once, not 14.97 + 1.23 = 16.20 by luck of rounding).
  it("caps days at 365 and rounds the daily part once", () => {
    const iof = computeIof(
      {
        borrower: "PF",
        principal: 100000,
        disbursementDate: "2025-01-01",
        installments: [
          { due_date: "2025-01-31", amortization: 50000 },
          { due_date: "2026-02-05", amortization: 50000 },
        ],
      },
      IOF_2025,
    );
    expect(iof).toEqual({ daily: 1620, additional: 380, total: 2000 });
  });

  // Price 1000.00 @ 1% × 12 from 2025-01-15: amortizations 78.85, 79.64, … 87.96 (see price test) on
  // days 31, 59, 90, …, 365: Σ A·d = 20,052,975 centavo-days × 0.000082 = 1644.34 → 16.44.
  it("uses each installment's amortization and days", () => {
    const schedule = priceSchedule({ principal: 100000, monthlyRate: "0.01", installments: 12, disbursementDate: "2025-01-15" });
    const iof = computeIof({ borrower: "PF", principal: 100000, disbursementDate: "2025-01-15", installments: schedule }, IOF_2025);
    expect(iof).toEqual({ daily: 1644, additional: 380, total: 2024 });
  });

  it("rejects due dates before disbursement", () => {
    const run = (due_date: string, amortization: number) =>
      computeIof({ borrower: "PF", principal: 100, disbursementDate: "2025-01-15", installments: [{ due_date, amortization }] }, IOF_2025);
    expect(() => run("2025-01-14", 100)).toThrow(RangeError);
  });

  // Grace: the first installment amortizes −50.00 (interest capitalized). The second's 600.00 repays
  // those 50.00 first (CC art. 354) and 550.00 of principal; the third's 500.00 is principal. Taxed:
  // 55,000 × 59 d + 50,000 × 90 d = 3,245,000 + 4,500,000 = 7,745,000 centavo-days × 0.000082 = 635.09
  // → 6.35 (half-up); additional 0.38% × 1,000.00 = 3.80.
  it("taxes only principal when a long first period capitalizes interest", () => {
    const iof = computeIof(
      {
        borrower: "PF",
        principal: 100000,
        disbursementDate: "2025-01-15",
        installments: [
          { due_date: "2025-02-15", amortization: -5000 },
          { due_date: "2025-03-15", amortization: 60000 },
          { due_date: "2025-04-15", amortization: 50000 },
        ],
      },
      IOF_2025,
    );
    expect(iof).toEqual({ daily: 635, additional: 380, total: 1015 });
  });
});
