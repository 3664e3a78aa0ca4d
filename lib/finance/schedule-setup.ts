import * as D from "./decimal";
import { growth } from "./decimal-math";
import { addMonths, daysBetween } from "./date";
import { generateDueDates, monthlyDueDatesAfter } from "./due-dates";
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
