import { applyRate } from "./money";
import { dueDateAt, installmentRow, setupSchedule } from "./schedule-setup";
import type { Installment, ScheduleInput } from "./schedule-types";

// SAC (constant amortization): A = floor(PV/n) centavos, the last installment amortizes the remaining
// balance (A plus the residue, < n centavos) so amortizations sum exactly to PV and it ends at 0;
// interest = rate × opening balance rounded half-up on each row (see "How a person checks a row" in
// schedule-setup.ts). A grace period only changes the first period's interest factor.
export function sacSchedule(input: ScheduleInput): Installment[] {
  const setup = setupSchedule(input);
  const amortization = Math.floor(setup.principal / setup.count);
  const rows: Installment[] = [];
  let balance = setup.principal;
  for (let k = 0; k < setup.count; k += 1) {
    const factor = k === 0 ? setup.firstFactor : setup.rate;
    const interest = applyRate(balance, factor);
    const thisAmortization = k === setup.count - 1 ? balance : amortization;
    rows.push(installmentRow(k + 1, dueDateAt(setup, k), balance, interest, thisAmortization));
    balance -= thisAmortization;
  }
  return rows;
}

