import * as D from "./decimal";
import { growth } from "./decimal-math";
import { addMonths, daysBetween } from "./date";
import { adjust } from "./business-days";
import { scheduleNominalDates } from "./due-dates";
import { assertPositiveCentavos, type Centavos } from "./money";
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
  // The nominal dates (scheduleNominalDates: an early payoff discounts to them), each moved by the rule.
  const dueDates = scheduleNominalDates(input.disbursementDate, count, input.firstDueDate).map((date) => adjust(date, rule, input.calendar));
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

// How a person checks a row (Price and SAC). Every figure comes from that row and the contract rate i:
//   interest     = opening_balance × i, rounded half-up to the centavo (½ centavo goes up)
//   amortization = payment − interest (Price: payment = PMT on every row but the last; SAC: A = ⌊P/n⌋)
//   closing      = opening_balance − amortization = the next row's opening_balance
// The last row amortizes its whole opening balance (amortization = opening_balance, payment =
// opening_balance + its interest, closing 0): it absorbs the PMT rounding and every row's interest
// rounding, so it may differ from PMT by a few centavos. Nothing is carried between rows.
// First period (grace, or a first due date that is not one month after disbursement): the row's rate is
// the compound rate of its period, f = (1+i)^t − 1 with t = whole months + leftover days/30 from the
// disbursement date to the NOMINAL first due date (periodExponent), so interest = round(opening × f).
// E.g. 1,000.00 at 1% a.m. disbursed Jan 15, first due Apr 15 (t = 3): f = 1.01³ − 1 = 0.030301,
// interest = 30.301 → 30.30; first due Mar 1 (t = 1 + 14/30): f = 1.01^(44/30) − 1 = 0.0147008…,
// interest 14.70. When that interest exceeds the installment, the amortization is negative (the excess is
// capitalized: closing = opening − amortization is larger than opening) and the row still checks.
// Price's PMT itself is PV·i/(1 − (1+i)^−n) × (1+i)^(t−1), half-up.
// Due dates moved by the due date rule do not change any amount (interest runs on nominal periods).
//
// Cost of rounding per row: each row's interest is exact ± ½ centavo, so the schedule's present value at
// the contract rate differs from the principal by at most ½·Σ v^(t+k−1) ≤ n/2 centavos (v = 1/(1+i);
// schedule.property.test.ts asserts it).
