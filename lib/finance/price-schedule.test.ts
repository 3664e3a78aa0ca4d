import { describe, expect, it } from "vitest";
import { priceSchedule } from "./price-schedule";
import { scheduleTotals } from "./schedule";

const base = { disbursementDate: "2025-01-15" };

describe("priceSchedule", () => {
  // Textbook case (HP-12C: 1000 PV, 1 i, 12 n → PMT −88.85): 1000·0.01/(1−1.01^−12) = 88.8488 → 88.85.
  // Each row: interest = 1% of its opening balance, half-up on that row; amortization = 88.85 − interest;
  // the last row amortizes what is left. Every row is recomputed in schedule.table.test.ts.
  it("PV 1000.00, 1% a.m., 12 months → PMT 88.85", () => {
    const rows = priceSchedule({ ...base, principal: 100000, monthlyRate: "0.01", installments: 12 });
    expect(rows.slice(0, 11).every((r) => r.payment === 8885)).toBe(true);
    expect(rows[0]).toEqual({
      number: 1,
      due_date: "2025-02-15",
      opening_balance: 100000,
      interest: 1000,
      amortization: 7885,
      payment: 8885,
      closing_balance: 92115,
    });
    // Month 2: 921.15 × 1% = 9.2115 → 9.21; amortization 88.85 − 9.21 = 79.64.
    expect(rows[1]).toMatchObject({ opening_balance: 92115, interest: 921, amortization: 7964 });
    // Month 3: 841.51 × 1% = 8.4151 → 8.42; amortization 88.85 − 8.42 = 80.43.
    expect(rows[2]).toMatchObject({ opening_balance: 84151, interest: 842, amortization: 8043 });
    // Month 12: opening 87.96, interest 0.8796 → 0.88 on its row; it amortizes the whole 87.96, so the
    // payment is 87.96 + 0.88 = 88.84 and the balance ends at 0. (Was 0.87 / 88.83 / totals 66.18 while
    // the interest rounding carried its remainder between rows, commit 55fb768: month 6's 5.9779 was then
    // charged 5.97, one centavo off from what a person computes on that row.)
    expect(rows[11]).toEqual({
      number: 12,
      due_date: "2026-01-15",
      opening_balance: 8796,
      interest: 88,
      amortization: 8796,
      payment: 8884,
      closing_balance: 0,
    });
    expect(scheduleTotals(rows)).toEqual({ payment: 106619, interest: 6619, amortization: 100000 });
  });

  it("PV 10,000.00, 2% a.m., 24 months → PMT 528.71 (= 528.7110)", () => {
    const rows = priceSchedule({ ...base, principal: 1_000_000, monthlyRate: "0.02", installments: 24 });
    expect(rows[0]?.payment).toBe(52871);
    expect(rows.at(-1)?.closing_balance).toBe(0);
  });

  it("zero rate splits the principal, last takes the residue", () => {
    const rows = priceSchedule({ ...base, principal: 100000, monthlyRate: "0", installments: 3 });
    expect(rows.map((r) => r.payment)).toEqual([33333, 33333, 33334]);
    expect(rows.every((r) => r.interest === 0)).toBe(true);
  });

  // Grace: first due 3 months after disbursement → first period t₁ = 3, factor 1.01³ − 1 = 3.0301%
  // → interest 3030.10 → 30.30; PMT = 88.8488 × 1.01² = 90.6346 → 90.63.
  it("grace of two extra whole months compounds the first period", () => {
    const rows = priceSchedule({ ...base, principal: 100000, monthlyRate: "0.01", installments: 12, firstDueDate: "2025-04-15" });
    expect(rows[0]).toMatchObject({ interest: 3030, payment: 9063, amortization: 6033 });
    expect(rows[1]?.due_date).toBe("2025-05-15");
    expect(rows.at(-1)?.closing_balance).toBe(0);
  });

  // First due Mar 1 from Jan 15 = 1 month + 14 days → t₁ = 1 + 14/30: interest 1000·(1.01^t₁ − 1)
  // = 14.7008 → 14.70; PMT = 88.8488 × 1.01^(14/30) = 89.2623 → 89.26 (mpmath).
  it("grace of extra days is pro-rata by days/30", () => {
    const rows = priceSchedule({ ...base, principal: 100000, monthlyRate: "0.01", installments: 12, firstDueDate: "2025-03-01" });
    expect(rows[0]).toMatchObject({ interest: 1470, payment: 8926 });
    expect(rows.at(-1)?.closing_balance).toBe(0);
  });

  it("moves due dates by rule without changing amounts", () => {
    const input = { principal: 100000, monthlyRate: "0.01", installments: 3, disbursementDate: "2026-01-14" };
    const kept = priceSchedule(input);
    const moved = priceSchedule({ ...input, dueDateRule: "following" });
    // 2026-02-14 is a Saturday and Feb 16–17 are Carnival → Feb 18.
    expect(moved.map((r) => r.due_date)).toEqual(["2026-02-18", "2026-03-16", "2026-04-14"]);
    expect(moved.map((r) => r.payment)).toEqual(kept.map((r) => r.payment));
  });

  it("rejects bad input", () => {
    const ok = { ...base, principal: 100000, monthlyRate: "0.01", installments: 12 };
    expect(() => priceSchedule({ ...ok, principal: 0 })).toThrow(RangeError);
    expect(() => priceSchedule({ ...ok, principal: 10.5 })).toThrow(RangeError);
    expect(() => priceSchedule({ ...ok, monthlyRate: "-0.01" })).toThrow(RangeError);
    expect(() => priceSchedule({ ...ok, installments: 0 })).toThrow(RangeError);
    expect(() => priceSchedule({ ...ok, firstDueDate: "2025-01-15" })).toThrow(RangeError);
  });
});
