import * as D from "./decimal";
import { pow } from "./decimal-math";
import { daysBetween, type IsoDate } from "./date";
import { assertCentavos, roundCentavos, type Centavos } from "./money";
import { parseRate, periodExponent } from "./rates";

export type EarlyPayoffInput = {
  /** Contract monthly rate, decimal string. */
  monthlyRate: string;
  payoffDate: IsoDate;
  /** The unpaid installments (payment = face value on its due date). */
  installments: readonly { due_date: IsoDate; payment: Centavos }[];
};

export type EarlyPayoffResult = {
  /** Amount that settles all given installments on payoffDate. */
  amount: Centavos;
  /** Sum of face values of the installments. */
  face_value: Centavos;
  /** Interest waived by paying early (CDC art. 52 §2): face_value − amount. */
  discount: Centavos;
};

// Present value at the contract rate: each installment due after payoffDate is divided by
// (1+i)^t, t = whole months + leftover days/30 from payoffDate to its due date (the same
// convention as the grace period, so a payoff on the disbursement date returns the principal).
// Installments due on or before payoffDate count at face value; late charges are separate.
// Values are summed exactly and rounded half-up once.
/** (1+i)^t by rate, payoff date and due date: a portfolio's contracts share their due dates, and each power is the
 *  exact-decimal work of a line (an assignment of 1,000 contracts prices ≈ 90,000 lines). Exact either way; keyed by
 *  all three, so one cache may serve any calls. */
export type DivisorCache = Map<string, D.Decimal>;

export function earlyPayoff(input: EarlyPayoffInput, divisors: DivisorCache = new Map()): EarlyPayoffResult {
  const onePlusRate = D.add(D.ONE, parseRate(input.monthlyRate, "monthlyRate"));
  let total = D.ZERO;
  let face = 0;
  for (const { due_date, payment } of input.installments) {
    assertCentavos(payment, "payment");
    face += payment;
    const amount = D.fromInt(payment);
    if (daysBetween(input.payoffDate, due_date) <= 0) {
      total = D.add(total, amount);
      continue;
    }
    const key = `${input.monthlyRate}|${input.payoffDate}|${due_date}`;
    let divisor = divisors.get(key);
    if (divisor === undefined) {
      divisor = pow(onePlusRate, periodExponent(input.payoffDate, due_date));
      divisors.set(key, divisor);
    }
    total = D.add(total, D.div(amount, divisor));
  }
  const amount = roundCentavos(total);
  return { amount, face_value: face, discount: face - amount };
}
