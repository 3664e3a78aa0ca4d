import { describe, expect, it } from "vitest";
import fc from "fast-check";
import * as D from "./decimal";
import { cashFlowsFromSchedule, computeCet } from "./cet";
import { financeIof } from "./financed-iof";
import { computeIof } from "./iof";
import { annualFromMonthly } from "./rates";
import { daysBetween } from "./date";
import { pow } from "./decimal-math";
import { buildSchedule } from "./schedule";
import { borrowerArb, IOF_2025, loanArb, systemArb } from "./test-fixtures";

const atLeast = (cetRate: string, nominal: string) => D.cmp(D.parse(cetRate), D.parse(nominal)) >= 0;

describe("CET properties", () => {
  it("IOF paid up front: CET ≥ nominal annual rate (1+i)^12 − 1", () => {
    fc.assert(
      fc.property(loanArb, systemArb, borrowerArb, (loan, system, borrower) => {
        const schedule = buildSchedule(system, loan);
        const iof = computeIof({ borrower, principal: loan.principal, disbursementDate: loan.disbursementDate, installments: schedule }, IOF_2025);
        const cet = computeCet({
          disbursementDate: loan.disbursementDate,
          released: loan.principal - iof.total,
          flows: cashFlowsFromSchedule(schedule),
        });
        expect(atLeast(cet.annualRate, annualFromMonthly(loan.monthlyRate))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it("IOF financed plus a fee paid separately: CET ≥ nominal annual rate", () => {
    fc.assert(
      fc.property(loanArb, systemArb, fc.integer({ min: 0, max: 50_000 }), (loan, system, fee) => {
        const { principal: net, ...rest } = loan;
        const financed = financeIof({ ...rest, net, system, borrower: "PF" }, IOF_2025);
        const flows = cashFlowsFromSchedule(financed.schedule);
        const first = flows[0];
        if (fee > 0 && first) flows.push({ date: first.date, amount: fee });
        const cet = computeCet({ disbursementDate: loan.disbursementDate, released: net, flows });
        expect(atLeast(cet.annualRate, annualFromMonthly(loan.monthlyRate))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("solves to a root: the discounted flows equal the released amount", () => {
    fc.assert(
      fc.property(loanArb, systemArb, fc.integer({ min: 0, max: 50 }), (loan, system, feePercent) => {
        const schedule = buildSchedule(system, loan);
        const released = loan.principal - Math.floor((loan.principal * feePercent) / 100);
        const cet = computeCet({ disbursementDate: loan.disbursementDate, released, flows: cashFlowsFromSchedule(schedule) });
        // Discount independently with pow(1+CET, d/365) and compare to FC₀: |Σ − FC₀| < 1e-6 centavo.
        const onePlus = D.add(D.ONE, D.parse(cet.annualRate));
        const pv = schedule.reduce((sum, row) => {
          const years = D.fromRatio(daysBetween(loan.disbursementDate, row.due_date), 365);
          return D.add(sum, D.div(D.fromInt(row.payment), pow(onePlus, years)));
        }, D.ZERO);
        expect(D.cmp(D.abs(D.sub(pv, D.fromInt(released))), D.parse("0.000001"))).toBeLessThan(0);
      }),
      { numRuns: 60 },
    );
  });
});
