import * as D from "./decimal";
import { growth } from "./decimal-math";
import { previousBusinessDay } from "./business-days";
import { daysBetween, type IsoDate } from "./date";
import { applyRate, applyRateProRata, assertCentavos, type Centavos } from "./money";
import { parseRate } from "./rates";

export type LateChargesInput = {
  /** Installment amount due. */
  amount: Centavos;
  dueDate: IsoDate;
  asOf: IsoDate;
  /** The day late interest counts from, when not the due date: the last day it was reckoned (a payment made while
   *  late). The fine and whether the amount is late at all still go by the due date. */
  accruedThrough?: IsoDate;
  /** Fine (multa) charged once when late, e.g. "0.02" (CDC art. 52 §1 caps it at 2%). */
  fineRate: string;
  /** Late interest (juros de mora) per month, simple and pro rata die: rate × days/30, e.g. "0.01". */
  monthlyLateInterestRate: string;
  /** Optional contract rate kept accruing while late, compound pro rata: (1+i)^(days/30) − 1. */
  remunerativeMonthlyRate?: string;
};

export type LateChargesBreakdown = {
  principal_due: Centavos;
  fine: Centavos;
  late_interest: Centavos;
  remunerative_interest: Centavos;
  total: Centavos;
  days_late: number;
};

/**
 * The latest due date that is late on `asOf`: the business day before it. An amount due on a weekend or a national
 * holiday may be paid on the next business day without late charges (Lei 7.089/1983, art. 1º; boletos and Pix
 * alike); paid later, the delay counts from the due date itself. So on Monday an amount due on the Saturday before
 * is not late, and on Tuesday it is three days late.
 */
export function latestLateDueDate(asOf: IsoDate): IsoDate {
  return previousBusinessDay(asOf);
}

/** Whether an amount due on `dueDate` is late on `asOf` (see latestLateDueDate). */
export function isLate(dueDate: IsoDate, asOf: IsoDate): boolean {
  return dueDate <= latestLateDueDate(asOf);
}

// Every charge is computed on the installment amount and rounded half-up on its own; nothing is charged on or
// before the due date, nor on the next business day when the due date is not one (isLate).
export function lateCharges(input: LateChargesInput): LateChargesBreakdown {
  const amount = assertCentavos(input.amount, "amount");
  const daysLate = isLate(input.dueDate, input.asOf) ? daysBetween(input.dueDate, input.asOf) : 0;
  const fineRate = parseRate(input.fineRate, "fineRate");
  const lateRate = parseRate(input.monthlyLateInterestRate, "monthlyLateInterestRate");
  const remunerativeRate = parseRate(input.remunerativeMonthlyRate ?? "0", "remunerativeMonthlyRate");
  if (daysLate === 0) {
    return { principal_due: amount, fine: 0, late_interest: 0, remunerative_interest: 0, total: amount, days_late: 0 };
  }
  const fine = applyRate(amount, fineRate);
  const interestDays = input.accruedThrough === undefined ? daysLate : Math.max(0, daysBetween(input.accruedThrough, input.asOf));
  const late_interest = applyRateProRata(amount, lateRate, interestDays, 30);
  const remunerative_interest = applyRate(amount, growth(remunerativeRate, D.fromRatio(daysLate, 30)));
  const total = amount + fine + late_interest + remunerative_interest;
  return { principal_due: amount, fine, late_interest, remunerative_interest, total, days_late: daysLate };
}
