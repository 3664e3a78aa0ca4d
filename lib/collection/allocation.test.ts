import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allocate, amountsDue, lateInterestAccrued, type AllocatableInstallment } from "./allocation";

// Allocation table: exact, partial, late, over — every case stated whole.

const RULES = { fineRate: "0.02", monthlyLateInterestRate: "0.01" };
const inst = (n: number, dueDate: string, change: Partial<AllocatableInstallment> = {}): AllocatableInstallment => ({
  id: `ins_${n}`,
  number: n,
  dueDate,
  principal: 80000,
  interest: 20000,
  paidAmount: 0,
  finePaid: 0,
  lateInterestPaid: 0,
  lateInterestAccrued: 0,
  lateInterestAccruedOn: null,
  ...change,
});

describe("allocate", () => {
  it("exact payment on the due date: interest then principal, nothing late", () => {
    expect(allocate(100000, [inst(1, "2026-04-10")], RULES, "2026-04-10")).toEqual({
      lines: [{ installment_id: "ins_1", number: 1, fine: 0, late_interest: 0, interest: 20000, principal: 80000, total: 100000, settles: true }],
      credit: 0,
    });
  });

  it("partial payment: interest first, the rest to principal, not settled", () => {
    expect(allocate(30000, [inst(1, "2026-04-10")], RULES, "2026-04-01")).toEqual({
      lines: [{ installment_id: "ins_1", number: 1, fine: 0, late_interest: 0, interest: 20000, principal: 10000, total: 30000, settles: false }],
      credit: 0,
    });
  });

  it("late: fine 2% and pro-rata late interest 1% a month come first", () => {
    // 15 days late on R$ 1.000,00: fine 2.000, late interest 1% × 15/30 = 500.
    expect(amountsDue(inst(1, "2026-04-10"), RULES, "2026-04-25")).toEqual({ fine: 2000, late_interest: 500, interest: 20000, principal: 80000, total: 102500 });
    expect(allocate(102500, [inst(1, "2026-04-10")], RULES, "2026-04-25").lines[0]).toEqual({
      installment_id: "ins_1",
      number: 1,
      fine: 2000,
      late_interest: 500,
      interest: 20000,
      principal: 80000,
      total: 102500,
      settles: true,
    });
  });

  it("oldest first across installments, whatever order they come in; the rest is a credit", () => {
    const result = allocate(250000, [inst(2, "2026-05-10"), inst(1, "2026-04-10")], RULES, "2026-04-25");
    expect(result).toEqual({
      lines: [
        { installment_id: "ins_1", number: 1, fine: 2000, late_interest: 500, interest: 20000, principal: 80000, total: 102500, settles: true },
        { installment_id: "ins_2", number: 2, fine: 0, late_interest: 0, interest: 20000, principal: 80000, total: 100000, settles: true },
      ],
      credit: 47500,
    });
  });

  it("a second payment owes only what the first left: paid fine and interest are not charged again", () => {
    const after = inst(1, "2026-04-10", { paidAmount: 20000, finePaid: 2000, lateInterestPaid: 500 });
    // Open face 80.000 at 2026-04-25: fine 1.600 (< 2.000 paid) and late interest 400 (< 500 paid): nothing more.
    expect(amountsDue(after, RULES, "2026-04-25")).toEqual({ fine: 0, late_interest: 0, interest: 0, principal: 80000, total: 80000 });
  });

  it("late interest runs on the face open in each stretch: a payment while late lowers the base from its day on", () => {
    // R$ 1.000,00 due 2026-04-10; paid R$ 525,00 on 05-10 (30 days late): fine 2.000, late interest 1.000, then
    // interest 20.000 and principal 29.500 — the checkpoint is 1.000 accrued through 05-10, 50.500 left open.
    const first = allocate(52500, [inst(1, "2026-04-10")], RULES, "2026-05-10").lines[0]!;
    expect(first).toMatchObject({ fine: 2000, late_interest: 1000, interest: 20000, principal: 29500, settles: false });
    const after = inst(1, "2026-04-10", { paidAmount: 49500, finePaid: 2000, lateInterestPaid: 1000, lateInterestAccrued: 1000, lateInterestAccruedOn: "2026-05-10" });
    // On 06-09, 30 days later: 1.000 + 50.500 × 1% = 1.505 accrued, 505 of it still owed (not 50.500 × 1% × 60/30
    // = 1.010 less the 1.000 paid = 10, as if the whole delay had run on the remainder); the fine is not charged again.
    expect(lateInterestAccrued(after, RULES, "2026-06-09")).toBe(1505);
    expect(amountsDue(after, RULES, "2026-06-09")).toEqual({ fine: 0, late_interest: 505, interest: 0, principal: 50500, total: 51005 });
    // On the checkpoint's own day nothing more has accrued; a checkpoint on or before the due date is no checkpoint.
    expect(amountsDue(after, RULES, "2026-05-10").late_interest).toBe(0);
    expect(lateInterestAccrued(inst(1, "2026-04-10", { lateInterestAccrued: 999, lateInterestAccruedOn: "2026-04-01" }), RULES, "2026-04-25")).toBe(500);
  });

  it("skips settled installments and refuses a non-positive payment", () => {
    const paid = inst(1, "2026-04-10", { paidAmount: 100000 });
    expect(allocate(5000, [paid, inst(2, "2026-05-10")], RULES, "2026-04-25").lines.map((l) => l.installment_id)).toEqual(["ins_2"]);
    expect(() => allocate(0, [inst(1, "2026-04-10")], RULES, "2026-04-25")).toThrow(RangeError);
  });

  it("an installment whose interest exceeds it (negative amortization of a long first period) is settled by its face", () => {
    // R$ 10,000 at 1.85% a month over 96 months, first due 60 days out: installment 1 is 227.59 = 373.42 − 145.83.
    const first = inst(1, "2026-05-02", { principal: -14583, interest: 37342 });
    expect(amountsDue(first, RULES, "2026-05-02")).toEqual({ fine: 0, late_interest: 0, interest: 22759, principal: 0, total: 22759 });
    expect(allocate(22759, [first, inst(2, "2026-06-02")], RULES, "2026-05-02")).toEqual({
      lines: [{ installment_id: "ins_1", number: 1, fine: 0, late_interest: 0, interest: 22759, principal: 0, total: 22759, settles: true }],
      credit: 0,
    });
    const halfPaid = { ...first, paidAmount: 10000 };
    expect(amountsDue(halfPaid, RULES, "2026-05-02")).toEqual({ fine: 0, late_interest: 0, interest: 12759, principal: 0, total: 12759 });
  });

  it("property: lines plus credit add up to the payment, and no component exceeds what is due", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(fc.record({ offset: fc.integer({ min: 0, max: 200 }), paid: fc.integer({ min: 0, max: 100000 }) }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 120 }),
        (amount, specs, asOfOffset) => {
          // Some rows with negative amortization (interest above the face), as a long first period gives.
          const installments = specs.map((s, i) =>
            inst(i + 1, new Date(Date.UTC(2026, 0, 1 + s.offset)).toISOString().slice(0, 10), { paidAmount: s.paid, ...(s.offset % 3 === 0 ? { principal: -20000, interest: 120000 } : {}) }),
          );
          const asOf = new Date(Date.UTC(2026, 0, 1 + asOfOffset)).toISOString().slice(0, 10);
          const { lines, credit } = allocate(amount, installments, RULES, asOf);
          expect(lines.reduce((s, l) => s + l.total, 0) + credit).toBe(amount);
          for (const line of lines) {
            const due = amountsDue(installments.find((i) => i.id === line.installment_id)!, RULES, asOf);
            for (const k of ["fine", "late_interest", "interest", "principal"] as const) {
              expect(line[k]).toBeLessThanOrEqual(due[k]);
              expect(line[k]).toBeGreaterThanOrEqual(0);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
