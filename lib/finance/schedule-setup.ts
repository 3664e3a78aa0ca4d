import * as D from "./decimal";
import { growth } from "./decimal-math";
import { addMonths, daysBetween } from "./date";
import { generateDueDates, monthlyDueDatesAfter } from "./due-dates";
import { assertPositiveCentavos, type Centavos } from "./money";
import { roundDiv } from "./rounding";
import { parseRate, periodExponent } from "./rates";
import type { Installment, ScheduleInput } from "./schedule-types";

export const MAX_INSTALLMENTS = 600;

// Everything Price and SAC share: validated inputs, due dates and the first period's exponent.
export type ScheduleSetup = {
  principal: Centavos;
  rate: D.Decimal;
  count: number;
  dueDates: string[];
  // First period in months: 1 normally; months + days/30 from disbursement to a later first due date.
  firstPeriod: D.Decimal;
  // Interest factor of the first period: (1+i)^firstPeriod − 1 (exactly i when firstPeriod = 1).
  firstFactor: D.Decimal;
};

export function setupSchedule(input: ScheduleInput): ScheduleSetup {
  const principal = assertPositiveCentavos(input.principal, "principal");
  const count = input.installments;
  if (!Number.isInteger(count) || count < 1 || count > MAX_INSTALLMENTS) {
    throw new RangeError(`installments must be an integer from 1 to ${MAX_INSTALLMENTS}: ${count}`);
  }
  const rate = parseRate(input.monthlyRate, "monthlyRate");
  const firstDueDate = input.firstDueDate ?? addMonths(input.disbursementDate, 1);
  if (daysBetween(input.disbursementDate, firstDueDate) <= 0) {
    throw new RangeError(`firstDueDate ${firstDueDate} must be after disbursementDate ${input.disbursementDate}`);
  }
  const rule = input.dueDateRule ?? "keep";
  const dueDates = input.firstDueDate
    ? generateDueDates(firstDueDate, count, rule, input.calendar)
    : monthlyDueDatesAfter(input.disbursementDate, count, rule, input.calendar);
  const firstPeriod = periodExponent(input.disbursementDate, firstDueDate);
  const firstFactor = D.cmp(firstPeriod, D.ONE) === 0 ? rate : growth(rate, firstPeriod);
  return { principal, rate, count, dueDates, firstPeriod, firstFactor };
}

export function dueDateAt(setup: ScheduleSetup, index: number): string {
  const date = setup.dueDates[index];
  if (date === undefined) throw new RangeError(`no due date for installment ${index + 1}`);
  return date;
}

export function installmentRow(
  number: number,
  due_date: string,
  opening_balance: Centavos,
  interest: Centavos,
  amortization: Centavos,
): Installment {
  const payment = interest + amortization;
  return { number, due_date, opening_balance, interest, amortization, payment, closing_balance: opening_balance - amortization };
}

// Interest rounding rule (Price and SAC): the exact interest of period k is xₖ = fₖ·Bₖ₋₁ (fₖ the
// period's factor, Bₖ₋₁ the schedule's own integer opening balance), and the centavos charged are
// Iₖ = round(Xₖ) − round(Xₖ₋₁) with Xₖ = x₁ + … + xₖ, half-up: each period's fractional remainder is
// carried into the next instead of being dropped, so Σ Iₖ never drifts more than ½ centavo from Σ xₖ.
// Xₖ is nondecreasing, so Iₖ ≥ 0. Why: Iₖ = xₖ + δₖ − δₖ₋₁ with δₖ = round(Xₖ) − Xₖ, |δₖ| ≤ ½, δ₀ = 0,
// and pₖ = Iₖ + Aₖ = Bₖ₋₁(1+i) − Bₖ + δₖ − δₖ₋₁ (period 1 grows by (1+i)^t₁). Discounting pₖ by
// v^(t₁+k−1), v = 1/(1+i), the balance terms telescope to B₀ = P for any integer amortizations, and
// with the common factor v^(t₁−1) set aside,
//   Σ (δₖ − δₖ₋₁)·vᵏ = δₙvⁿ + (1 − v)·Σₖ₌₁ⁿ⁻¹ δₖvᵏ,  |·| ≤ ½·(vⁿ + v − vⁿ) = ½·v,
// so |PV − P| ≤ ½·v^t₁ < ½ centavo (exactly 0 at a zero rate), whatever the term. Rounding each
// period independently instead gives Σ δₖvᵏ, bounded only by ½·Σvᵏ (observed up to 22 centavos).
export function interestAccrual(): (openingBalance: Centavos, factor: D.Decimal) => Centavos {
  let exact = 0n; // Σ xₖ at Decimal scale (exact: integer balance × scaled factor)
  let charged = 0n; // Σ Iₖ = round(Σ xₖ)
  return (openingBalance, factor) => {
    exact += BigInt(openingBalance) * factor.raw;
    const total = roundDiv(exact, D.SCALE, "half-up");
    const interest = Number(total - charged);
    charged = total;
    return interest;
  };
}
