import { dueDateAt, installmentRow, interestAccrual, setupSchedule } from "./schedule-setup";
import type { Installment, ScheduleInput } from "./schedule-types";

// SAC (constant amortization): A = floor(PV/n) centavos, the last installment takes the residue
// (< n centavos) so amortizations sum exactly to PV; interest = rate × opening balance with the
// rounding remainder carried (half-up round of the cumulative exact interest minus what was already
// charged; see interestAccrual), so PV at the contract rate equals the principal within ½ centavo.
// A grace period only changes the first period's interest factor.
export function sacSchedule(input: ScheduleInput): Installment[] {
  const setup = setupSchedule(input);
  const amortization = Math.floor(setup.principal / setup.count);
  const rows: Installment[] = [];
  const accrue = interestAccrual();
  let balance = setup.principal;
  for (let k = 0; k < setup.count; k += 1) {
    const factor = k === 0 ? setup.firstFactor : setup.rate;
    const interest = accrue(balance, factor);
    const thisAmortization = k === setup.count - 1 ? balance : amortization;
    rows.push(installmentRow(k + 1, dueDateAt(setup, k), balance, interest, thisAmortization));
    balance -= thisAmortization;
  }
  return rows;
}

