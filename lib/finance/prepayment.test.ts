import { describe, expect, it } from "vitest";
import { addMonths } from "./date";
import { priceSchedule } from "./price-schedule";
import { payoffLines, prepaymentSchedule } from "./prepayment";
import { sacSchedule } from "./sac-schedule";

// Hand-computed cases (1% a.m., dates exactly one month apart, so every exponent is whole) and properties over
// real schedules: the new rows end at zero on the same dates, and their value on the date is the balance left.

const date = "2026-01-10";
const due = (k: number) => addMonths(date, k);
const four = [1, 2, 3, 4].map((k) => ({ number: k + 8, due_date: due(k), payment: 100_000, amortization: 0 }));

describe("payoffLines", () => {
  it("discounts each installment at the contract rate, rounded half-up per line", () => {
    // 100000 / 1.01^k → 99009.90, 98029.60, 97059.01, 96098.03
    expect(payoffLines("0.01", date, four).map((l) => [l.present_value, l.discount])).toEqual([
      [99_010, 990],
      [98_030, 1_970],
      [97_059, 2_941],
      [96_098, 3_902],
    ]);
  });

  it("counts installments due on or before the date at face value", () => {
    expect(payoffLines("0.01", due(2), four).map((l) => l.present_value)).toEqual([100_000, 100_000, 99_010, 98_030]);
  });

  it("on the disbursement date, a whole Price schedule is worth its principal (within a centavo per line)", () => {
    const rows = priceSchedule({ principal: 1_000_000, monthlyRate: "0.0180", installments: 24, disbursementDate: "2026-03-02", firstDueDate: "2026-04-02" });
    const total = payoffLines("0.0180", "2026-03-02", rows).reduce((s, l) => s + l.present_value, 0);
    expect(Math.abs(total - 1_000_000)).toBeLessThanOrEqual(24);
  });
});

describe("prepaymentSchedule", () => {
  // Balance before: 99010 + 98030 + 97059 + 96098 = 390197; paying 190197 leaves 200000.
  it("installment_amount: same four dates, a smaller payment (PMT of 200000 at 1% over 4 = 51256)", () => {
    const result = prepaymentSchedule({ system: "price", monthlyRate: "0.01", date, remaining: four, amount: 190_197, reduce: "installment_amount" });
    expect(result.balance_before).toBe(390_197);
    expect(result.balance_after).toBe(200_000);
    expect(result.dropped).toEqual([]);
    expect(result.schedule.map((r) => [r.number, r.due_date, r.opening_balance, r.interest, r.amortization, r.payment])).toEqual([
      [9, due(1), 200_000, 2_000, 49_256, 51_256],
      [10, due(2), 150_744, 1_507, 49_749, 51_256],
      [11, due(3), 100_995, 1_010, 50_246, 51_256],
      [12, due(4), 50_749, 507, 50_749, 51_256],
    ]);
  });

  it("term: the fewest installments not above the current one (3: 68004), the last falls away", () => {
    const result = prepaymentSchedule({ system: "price", monthlyRate: "0.01", date, remaining: four, amount: 190_197, reduce: "term" });
    expect(result.dropped).toEqual([12]);
    expect(result.schedule.map((r) => [r.number, r.due_date, r.opening_balance, r.interest, r.amortization, r.payment])).toEqual([
      [9, due(1), 200_000, 2_000, 66_004, 68_004],
      [10, due(2), 133_996, 1_340, 66_664, 68_004],
      [11, due(3), 67_332, 673, 67_332, 68_005],
    ]);
  });

  it("on a real Price schedule mid-way between due dates: ends at zero, same dates, worth the balance left", () => {
    const rows = priceSchedule({ principal: 1_500_000, monthlyRate: "0.0180", installments: 36, disbursementDate: "2026-01-15", firstDueDate: "2026-02-15", dueDateRule: "keep" });
    const remaining = rows.slice(6).map((r) => ({ number: r.number, due_date: r.due_date, payment: r.payment, amortization: r.amortization }));
    const on = "2026-07-28"; // after installment 6 (2026-07-15), before 7
    for (const reduce of ["installment_amount", "term"] as const) {
      const result = prepaymentSchedule({ system: "price", monthlyRate: "0.0180", date: on, remaining, amount: 300_000, reduce });
      const last = result.schedule.at(-1)!;
      expect(last.closing_balance).toBe(0);
      expect(result.schedule.reduce((s, r) => s + r.amortization, 0)).toBe(result.balance_after);
      expect(result.schedule.map((r) => r.due_date)).toEqual(remaining.slice(0, result.schedule.length).map((r) => r.due_date));
      // Worth the balance left on the schedule's own convention (first period 0.6 month: 18 days to 2026-08-15,
      // then whole months; an independent float check). payoffLines counts calendar days instead (e.g. 7.5
      // months to 2027-03-15 across February), which differs by a few centavos per installment.
      const worth = result.schedule.reduce((s, r, k) => s + r.payment / 1.018 ** (0.6 + k), 0);
      expect(Math.abs(worth - result.balance_after)).toBeLessThanOrEqual(result.schedule.length);
      if (reduce === "installment_amount") {
        expect(result.schedule).toHaveLength(30);
        expect(result.schedule[0]!.payment).toBeLessThan(remaining[0]!.payment);
      } else {
        expect(result.schedule[0]!.payment).toBeLessThanOrEqual(remaining[0]!.payment);
        expect(result.schedule.length).toBeLessThan(30);
        expect(result.dropped).toEqual(remaining.slice(result.schedule.length).map((r) => r.number));
        // One installment fewer would need a payment above the current one.
        const fewer = priceSchedule({ principal: result.balance_after, monthlyRate: "0.0180", installments: result.schedule.length - 1, disbursementDate: on, firstDueDate: remaining[0]!.due_date });
        expect(fewer[0]!.payment).toBeGreaterThan(remaining[0]!.payment);
      }
    }
  });

  it("SAC term: as many installments as the current amortization needs, none amortizing more than it", () => {
    const rows = sacSchedule({ principal: 1_200_000, monthlyRate: "0.0150", installments: 12, disbursementDate: "2026-01-10", firstDueDate: "2026-02-10" });
    const remaining = rows.slice(2).map((r) => ({ number: r.number, due_date: r.due_date, payment: r.payment, amortization: r.amortization }));
    const result = prepaymentSchedule({ system: "sac", monthlyRate: "0.0150", date: "2026-03-10", remaining, amount: 400_000, reduce: "term" });
    expect(result.schedule.length).toBe(Math.ceil(result.balance_after / 100_000));
    expect(result.schedule.slice(0, -1).every((r) => r.amortization <= 100_000)).toBe(true);
    expect(result.dropped).toEqual(remaining.slice(result.schedule.length).map((r) => r.number));
    expect(result.schedule.at(-1)!.closing_balance).toBe(0);
  });

  // Nominal dates: the new amounts run from `date` to the first remaining installment's nominal date, then monthly; each
  // row carries those dates, and their value on `date` (discounted to them) is the balance left.
  it("computes on the remaining installments' nominal dates and returns them; the borrower pays no interest past a due date", () => {
    const nominal = ["2026-02-15", "2026-03-15", "2026-04-15", "2026-05-15"];
    const actual = ["2026-02-18", "2026-03-16", "2026-04-15", "2026-05-15"]; // `following`: Carnival, a Sunday
    const rows = four.map((r, k) => ({ ...r, due_date: actual[k]!, nominal_due_date: nominal[k]! }));
    for (const on of ["2026-02-03", "2026-02-14"]) {
      const result = prepaymentSchedule({ system: "price", monthlyRate: "0.01", date: on, remaining: rows, amount: 100_000, reduce: "installment_amount" });
      expect(result.schedule.map((r) => r.due_date)).toEqual(actual);
      expect(result.schedule.map((r) => r.nominal_due_date)).toEqual(nominal);
      expect(result.balance_before).toBe(payoffLines("0.01", on, rows).reduce((sum, l) => sum + l.present_value, 0));
      const worth = payoffLines("0.01", on, result.schedule).reduce((sum, l) => sum + l.present_value, 0);
      expect(Math.abs(worth - result.balance_after)).toBeLessThanOrEqual(4); // ½ centavo per row (interest) + ½ per line
      // Worth on the days they are actually paid (on or after their nominal dates): never more than the balance left.
      const paidOnDueDates = payoffLines("0.01", on, result.schedule.map((r) => ({ ...r, nominal_due_date: r.due_date }))).reduce((sum, l) => sum + l.present_value, 0);
      expect(paidOnDueDates).toBeLessThanOrEqual(result.balance_after + 4);
    }
  });

  it("refuses while the first remaining installment's period has ended but its following due date has not come: it is owed in full", () => {
    // Re-anchored on its actual Feb 18, the new periods ended Mar 18, Apr 18 … — after the installments' due dates (Mar 16,
    // Apr 15 …): each amount then carried interest for days after the borrower paid it.
    const nominal = ["2026-02-15", "2026-03-15", "2026-04-15", "2026-05-15"];
    const actual = ["2026-02-18", "2026-03-16", "2026-04-15", "2026-05-15"];
    const rows = four.map((r, k) => ({ ...r, due_date: actual[k]!, nominal_due_date: nominal[k]! }));
    for (const on of ["2026-02-15", "2026-02-16", "2026-02-17"]) {
      expect(() => prepaymentSchedule({ system: "price", monthlyRate: "0.01", date: on, remaining: rows, amount: 100_000, reduce: "installment_amount" })).toThrow(
        "Installment 9's period ended on 2026-02-15 (due 2026-02-18): it is owed in full",
      );
    }
  });

  it("a month-end loan keeps its month-end nominal dates (not re-anchored on a clamped Feb 28), with the same amounts", () => {
    const nominal = ["2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"]; // disbursed Jan 31
    const rows = four.map((r, k) => ({ ...r, due_date: nominal[k]!, nominal_due_date: nominal[k]! }));
    const result = prepaymentSchedule({ system: "price", monthlyRate: "0.01", date: "2026-02-10", remaining: rows, amount: 100_000, reduce: "installment_amount" });
    expect(result.schedule.map((r) => r.nominal_due_date)).toEqual(nominal);
    const anchored = prepaymentSchedule({ system: "price", monthlyRate: "0.01", date: "2026-02-10", remaining: rows.map((r) => ({ ...r, nominal_due_date: undefined })), amount: 100_000, reduce: "installment_amount" });
    expect(result.schedule.map((r) => r.payment)).toEqual(anchored.schedule.map((r) => r.payment));
    const worth = payoffLines("0.01", "2026-02-10", result.schedule).reduce((sum, l) => sum + l.present_value, 0);
    expect(Math.abs(worth - result.balance_after)).toBeLessThanOrEqual(4);
  });

  it("refuses an amount that settles everything, a non-positive amount, and installments not after the date", () => {
    expect(() => prepaymentSchedule({ system: "price", monthlyRate: "0.01", date, remaining: four, amount: 390_197, reduce: "term" })).toThrow(/full settlement/);
    expect(() => prepaymentSchedule({ system: "price", monthlyRate: "0.01", date, remaining: four, amount: 0, reduce: "term" })).toThrow(RangeError);
    expect(() => prepaymentSchedule({ system: "price", monthlyRate: "0.01", date: due(1), remaining: four, amount: 100, reduce: "term" })).toThrow(/due after/);
  });
});
