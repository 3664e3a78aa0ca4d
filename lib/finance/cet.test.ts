import { describe, expect, it } from "vitest";
import { cashFlowsFromSchedule, computeCet } from "./cet";
import { priceSchedule } from "./price-schedule";
import * as D from "./decimal";
import { ln } from "./decimal-math";

const single = (released: number, date: string, amount: number) =>
  computeCet({ disbursementDate: "2025-01-01", released, flows: [{ date, amount }] });

describe("computeCet", () => {
  // 1000.00 released, 1100.00 paid 365 days later: (1+CET)^(365/365) = 1.1 → 10.00% a.a.;
  // monthly (1.1)^(1/12) − 1 = 0.7974140428903741% → 0.80.
  it("one installment after exactly one year", () => {
    const cet = single(100000, "2026-01-01", 110000);
    expect(cet).toMatchObject({ annualPercent: "10.00", monthlyPercent: "0.80" });
    expect(cet.annualRate).toBe("0.10000000000000000000");
    expect(cet.monthlyRate.slice(0, 18)).toBe("0.0079741404289037");
  });

  // 1000.00 → 1010.00 after 30 days: CET = 1.01^(365/30) − 1 = 12.8695294159390…% (mpmath).
  it("one installment after 30 days", () => {
    const cet = single(100000, "2025-01-31", 101000);
    expect(cet.annualPercent).toBe("12.87");
    expect(cet.annualRate.slice(0, 18)).toBe("0.1286952941593902");
  });

  it("high rates: 20% a.m. for 30 days → 819.12% a.a.; 400% a.m. still solves", () => {
    expect(single(100000, "2025-01-31", 120000).annualPercent).toBe("819.12");
    // 5^(365/30) − 1 = 31,925,304,734.27% (mpmath)
    expect(single(100000, "2025-01-31", 500000).annualPercent).toBe("31925304734.27");
    // Absurd but solvable: 0.01 released, 1000.00 repaid in 31 days → ln(1+CET) = (365/31)·ln(10^5)
    // = 135.555412733 (mpmath).
    const extreme = single(1, "2025-02-01", 100000);
    expect(D.toFixed(ln(D.add(D.ONE, D.parse(extreme.annualRate))), 9)).toBe("135.555412733");
  });

  it("negative CET when less is paid back than released", () => {
    expect(single(100000, "2026-01-01", 90000).annualPercent).toBe("-10.00");
  });

  // Zero-interest loan with a 50.00 upfront fee: 950.00 released, 10 × 100.00 on the 10th of
  // Feb … Nov 2025. Root of Σ 100/(1+r)^(dⱼ/365) = 950 by mpmath findroot: r = 11.99919145161374%,
  // monthly 0.9488185625628217%.
  it("zero-interest loan with a fee", () => {
    const flows = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((m) => ({ date: `2025-${String(m + 1).padStart(2, "0")}-10`, amount: 10000 }));
    const cet = computeCet({ disbursementDate: "2025-01-10", released: 95000, flows });
    expect(cet).toMatchObject({ annualPercent: "12.00", monthlyPercent: "0.95" });
    expect(cet.annualRate.slice(0, 16)).toBe("0.11999191451613");
    expect(cet.monthlyRate.slice(0, 16)).toBe("0.00948818562562");
  });

  it("zero-interest loan without fees has CET 0", () => {
    const flows = [{ date: "2025-02-10", amount: 50000 }, { date: "2025-03-10", amount: 50000 }];
    expect(computeCet({ disbursementDate: "2025-01-10", released: 100000, flows }).annualRate).toBe("0.00000000000000000000");
  });

  // Price 1000.00 @ 1% × 12 from 2025-01-15, no fees: CET 12.73920352308610…% (mpmath on the same
  // flows: 11 × 88.85 and a last 88.84, see price-schedule.test.ts), above 1.01¹² − 1 = 12.68% only
  // because Feb has 28 days (actual/365 vs 30-day months).
  it("a Price schedule with no fees", () => {
    const schedule = priceSchedule({ principal: 100000, monthlyRate: "0.01", installments: 12, disbursementDate: "2025-01-15" });
    const cet = computeCet({ disbursementDate: "2025-01-15", released: 100000, flows: cashFlowsFromSchedule(schedule) });
    expect(cet.annualRate.slice(0, 17)).toBe("0.127392035230861");
    expect(cet.annualPercent).toBe("12.74");
  });

  it("rejects flows on or before disbursement, negative flows and empty flows", () => {
    expect(() => single(100000, "2025-01-01", 110000)).toThrow(RangeError);
    expect(() => single(100000, "2026-01-01", -1)).toThrow(RangeError);
    expect(() => computeCet({ disbursementDate: "2025-01-01", released: 100000, flows: [] })).toThrow(RangeError);
    expect(() => single(100000, "2026-01-01", 0)).toThrow(RangeError);
  });
});
