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
    expect(iof).toEqual({ daily: 246, additional: 380, total: 626, rows: [{ number: 1, due_date: "2025-01-31", days: 30, base: 100000, iof: 246 }] });
  });

  it("company rate comes from config", () => {
    const input = { borrower: "PJ" as const, principal: 100000, disbursementDate: "2025-01-01", installments: [{ due_date: "2025-01-31", amortization: 100000 }] };
    expect(computeIof(input, IOF_2025).total).toBe(123 + 380); // 1000 × 0.000041 × 30 = 1.23
    expect(computeIof(input, { ...IOF_2025, dailyRatePJ: "0.000082" }).total).toBe(626);
  });

  // Decreto 12.499/2025 for companies (lib/products.ts IOF_RATES): 1000 × 0.000082 × 30 = 2.46 a day's worth, and the
  // flat 0.95% = 9.50 instead of an individual's 0.38% = 3.80.
  it("the flat additional rate is the borrower's: companies 0.95%, individuals 0.38%", () => {
    const rates = { ...IOF_2025, dailyRatePJ: "0.000082", additionalRatePJ: "0.0095" };
    const input = { principal: 100000, disbursementDate: "2025-01-01", installments: [{ due_date: "2025-01-31", amortization: 100000 }] };
    expect(computeIof({ ...input, borrower: "PJ" }, rates)).toMatchObject({ daily: 246, additional: 950, total: 1196 });
    expect(computeIof({ ...input, borrower: "PF" }, rates)).toMatchObject({ daily: 246, additional: 380, total: 626 });
  });

  // 500.00 at 30 days: 500 × 0.000082 × 30 = 1.23; 500.00 at 401 days is capped at 365:
  // 500 × 0.000082 × 365 = 14.965 → 14.97 on its row (half-up). daily = 1.23 + 14.97 = 16.20.
  it("caps days at 365 and rounds each row's daily IOF on its row", () => {
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
    expect(iof).toEqual({
      daily: 1620,
      additional: 380,
      total: 2000,
      rows: [
        { number: 1, due_date: "2025-01-31", days: 30, base: 50000, iof: 123 },
        { number: 2, due_date: "2026-02-05", days: 365, base: 50000, iof: 1497 },
      ],
    });
  });

  // Price 1000.00 @ 1% × 12 from 2025-01-15 (amortizations from price-schedule.test.ts), each row
  // A × 0.000082 × days rounded half-up on its row (centavos):
  //   78.85×31 → 0.2004367 → 0.20     79.64×59 → 0.3852983 → 0.39     80.43×90 → 0.5935734 → 0.59
  //   81.24×120 → 0.7994016 → 0.80    82.05×151 → 1.0159431 → 1.02    82.87×181 → 1.2299565 → 1.23
  //   83.70×212 → 1.4550408 → 1.46    84.54×243 → 1.6845440 → 1.68    85.38×273 → 1.9113167 → 1.91
  //   86.24×304 → 2.1497907 → 2.15    87.10×334 → 2.3854948 → 2.39    87.96×365 → 2.6326428 → 2.63
  // daily = Σ rows = 16.45 (rounding the exact sum 16.4434395 once gave 16.44 before the rows were shown).
  it("uses each installment's amortization and days, one rounding per row", () => {
    const schedule = priceSchedule({ principal: 100000, monthlyRate: "0.01", installments: 12, disbursementDate: "2025-01-15" });
    const iof = computeIof({ borrower: "PF", principal: 100000, disbursementDate: "2025-01-15", installments: schedule }, IOF_2025);
    expect(iof.rows.map((r) => [r.base, r.days, r.iof])).toEqual([
      [7885, 31, 20], [7964, 59, 39], [8043, 90, 59], [8124, 120, 80], [8205, 151, 102], [8287, 181, 123],
      [8370, 212, 146], [8454, 243, 168], [8538, 273, 191], [8624, 304, 215], [8710, 334, 239], [8796, 365, 263],
    ]);
    expect(iof.rows.map((r) => r.due_date)).toEqual(schedule.map((r) => r.due_date));
    expect({ daily: iof.daily, additional: iof.additional, total: iof.total }).toEqual({ daily: 1645, additional: 380, total: 2025 });
  });

  it("rejects due dates before disbursement", () => {
    const run = (due_date: string, amortization: number) =>
      computeIof({ borrower: "PF", principal: 100, disbursementDate: "2025-01-15", installments: [{ due_date, amortization }] }, IOF_2025);
    expect(() => run("2025-01-14", 100)).toThrow(RangeError);
  });

  // Grace: the first installment amortizes −50.00 (interest capitalized: base 0). The second's 600.00
  // repays those 50.00 first (CC art. 354) and 550.00 of principal; the third's 500.00 is principal.
  // Rows: 550.00 × 0.000082 × 59 = 2.66090 → 2.66; 500.00 × 0.000082 × 90 = 3.69 → 3.69; daily 6.35;
  // additional 0.38% × 1,000.00 = 3.80.
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
    expect(iof).toEqual({
      daily: 635,
      additional: 380,
      total: 1015,
      rows: [
        { number: 1, due_date: "2025-02-15", days: 31, base: 0, iof: 0 },
        { number: 2, due_date: "2025-03-15", days: 59, base: 55000, iof: 266 },
        { number: 3, due_date: "2025-04-15", days: 90, base: 50000, iof: 369 },
      ],
    });
  });
});
