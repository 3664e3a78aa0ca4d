import { describe, expect, it } from "vitest";
import fc from "fast-check";
import * as D from "./decimal";
import { pow } from "./decimal-math";
import { addDays, addMonths } from "./date";
import { periodExponent } from "./rates";
import { loanArb, systemArb } from "./test-fixtures";
import { buildSchedule } from "./schedule";
import type { Installment } from "./schedule-types";

const NOISE = D.parse("0.000000001");

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

  // PV at the contract rate on the schedule's own periods: installment k is discounted by
  // v^(t₁+k−1), v = 1/(1+i), t₁ the first period's exponent (months + days/30, as setupSchedule). Each
  // row rounds its own interest half-up, so pₖ = Bₖ₋₁·fₖ + Bₖ₋₁ − Bₖ + εₖ with |εₖ| ≤ ½ centavo (fₖ the
  // row's factor, (1+i)^t₁ − 1 on the first row, i after); the balances telescope to B₀ = P for any
  // integer amortizations (the last row's included), leaving PV − P = Σ εₖ·v^(t₁+k−1). Asserted bound:
  // |PV − P| ≤ ½·Σ v^(t₁+k−1) ≤ n/2 centavos, plus 10⁻⁹ for the 36-digit arithmetic. (Replaces the
  // ½-centavo bound of the carried remainder, which made rows differ from what a person computes; the
  // bound holds with equality only if every row rounded the same way, observed up to ~22 centavos.)
  it.each(["price", "sac"] as const)("%s: PV of the payments at the contract rate is the principal within ½ centavo per installment", (system) => {
    fc.assert(
      fc.property(loanArb, fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 90 })), (loan, graceDays) => {
        const firstDueDate = addDays(addMonths(loan.disbursementDate, 1), graceDays);
        const rows = buildSchedule(system, { ...loan, firstDueDate });
        const onePlusRate = D.add(D.ONE, D.parse(loan.monthlyRate));
        const v = D.div(D.ONE, onePlusRate);
        let factor = D.div(D.ONE, pow(onePlusRate, periodExponent(loan.disbursementDate, firstDueDate)));
        let pv = D.ZERO;
        let discounts = D.ZERO; // Σ v^(t₁+k−1)
        for (const r of rows) {
          pv = D.add(pv, D.mulInt(factor, r.payment));
          discounts = D.add(discounts, factor);
          factor = D.mul(factor, v);
        }
        const deviation = D.abs(D.sub(pv, D.fromInt(loan.principal)));
        const bound = D.add(D.div(discounts, D.fromInt(2)), NOISE);
        expect(D.cmp(deviation, bound)).toBeLessThanOrEqual(0);
        expect(D.cmp(bound, D.add(D.fromRatio(rows.length, 2), NOISE))).toBeLessThanOrEqual(0);
      }),
      { numRuns: 200 },
    );
  });
});
