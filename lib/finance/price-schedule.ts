import * as D from "./decimal";
import { pow } from "./decimal-math";
import { applyRate, roundCentavos, type Centavos } from "./money";
import { dueDateAt, installmentRow, setupSchedule, type ScheduleSetup } from "./schedule-setup";
import type { Installment, ScheduleInput } from "./schedule-types";

// Price (French) system: equal payments PMT = PV·i / (1 − (1+i)^−n), rounded half-up to centavos.
// With a longer first period t₁ (grace), PMT is multiplied by (1+i)^(t₁−1): the same annuity, one
// period later, so the schedule still ends at zero.
export function pricePayment(setup: ScheduleSetup): Centavos {
  const { principal, rate, count, firstPeriod } = setup;
  const pv = D.fromInt(principal);
  if (D.isZero(rate)) return roundCentavos(D.div(pv, D.fromInt(count)));
  const discount = D.sub(D.ONE, D.powInt(D.add(D.ONE, rate), -count));
  const annuity = D.div(D.mul(pv, rate), discount);
  const delay = pow(D.add(D.ONE, rate), D.sub(firstPeriod, D.ONE));
  return roundCentavos(D.mul(annuity, delay));
}

// Every row checks by hand (see "How a person checks a row" in schedule-setup.ts): interest = rate ×
// opening balance rounded half-up on that row, amortization = PMT − interest, closing = opening −
// amortization. The last installment amortizes the whole remaining balance (its payment = that
// balance + its own row's interest), absorbing the PMT and interest rounding so the schedule ends at 0.
export function priceSchedule(input: ScheduleInput): Installment[] {
  const setup = setupSchedule(input);
  const payment = pricePayment(setup);
  const rows: Installment[] = [];
  let balance = setup.principal;
  for (let k = 0; k < setup.count; k += 1) {
    const interest = applyRate(balance, k === 0 ? setup.firstFactor : setup.rate);
    const isLast = k === setup.count - 1;
    // min(): only degenerate inputs (a few centavos over many months) could overpay before the end.
    const amortization = isLast ? balance : Math.min(payment - interest, balance);
    rows.push(installmentRow(k + 1, dueDateAt(setup, k), balance, interest, amortization));
    balance -= amortization;
  }
  return rows;
}
