import { computeIof, type BorrowerKind, type IofBreakdown, type IofConfig } from "./iof";
import { assertPositiveCentavos, type Centavos } from "./money";
import { buildSchedule } from "./schedule";
import type { AmortizationSystem, Installment, ScheduleInput } from "./schedule-types";

export type FinancedPrincipal = { principal: Centavos; iof: Centavos; released: Centavos };

const MAX_FIXED_POINT_STEPS = 100;
const MAX_LOCAL_STEPS = 10_000;

function step(principal: Centavos, by: 1 | -1, guard: number): Centavos {
  if (guard <= 0) throw new RangeError("IOF does not converge: P − IOF(P) must grow with P");
  return principal + by;
}

// Solves P − IOF(P) = net for IOF financed into the principal. Fixed-point iteration
// P ← net + IOF(P) converges because IOF grows by ~3% of P at most (a contraction); a final local
// search returns the smallest P with P − IOF(P) ≥ net. Rarely (~0.3% of Price loans) no P is exact:
// one more centavo of principal shifts amortization rounding so the daily IOF drops a centavo and
// P − IOF(P) skips net; the rule then releases net + 1 (never less than requested).
export function solveFinancedPrincipal(net: Centavos, iofOf: (principal: Centavos) => Centavos): FinancedPrincipal {
  assertPositiveCentavos(net, "net");
  const released = (p: Centavos): Centavos => p - iofOf(p);
  let principal = net;
  for (let i = 0; i < MAX_FIXED_POINT_STEPS; i += 1) {
    const next = net + iofOf(principal);
    if (next === principal) break;
    principal = next;
  }
  // After the fixed point these walks take a step or two; the guard only trips on a broken iofOf.
  let guard = MAX_LOCAL_STEPS;
  while (released(principal) < net) principal = step(principal, +1, (guard -= 1));
  while (principal - 1 >= net && released(principal - 1) >= net) principal = step(principal, -1, (guard -= 1));
  const iof = iofOf(principal);
  return { principal, iof, released: principal - iof };
}

export type FinancedIofInput = Omit<ScheduleInput, "principal"> & {
  /** Amount the borrower must receive. */
  net: Centavos;
  system: AmortizationSystem;
  borrower: BorrowerKind;
};

export type FinancedIofResult = FinancedPrincipal & { breakdown: IofBreakdown; schedule: Installment[] };

// Convenience: builds the schedule for each candidate principal and computes its IOF.
export function financeIof(input: FinancedIofInput, config: IofConfig): FinancedIofResult {
  const { net, system, borrower, ...scheduleInput } = input;
  const iofFor = (principal: Centavos) => {
    const schedule = buildSchedule(system, { ...scheduleInput, principal });
    const breakdown = computeIof(
      { borrower, principal, disbursementDate: scheduleInput.disbursementDate, installments: schedule },
      config,
    );
    return { schedule, breakdown };
  };
  const solved = solveFinancedPrincipal(net, (principal) => iofFor(principal).breakdown.total);
  return { ...solved, ...iofFor(solved.principal) };
}
