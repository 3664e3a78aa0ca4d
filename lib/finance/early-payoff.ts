import * as D from "./decimal";
import { pow } from "./decimal-math";
import { daysBetween, type IsoDate } from "./date";
import { assertCentavos, roundCentavos, type Centavos } from "./money";
import { parseRate, periodExponent } from "./rates";

export type EarlyPayoffInput = {
  /** Contract monthly rate, decimal string. */
  monthlyRate: string;
  payoffDate: IsoDate;
  /** The unpaid installments (payment = face value on its due date). `nominal_due_date`: the end of the monthly period
   *  its interest was computed on, before the due date rule moved it to `due_date` (default: `due_date` itself — the
   *  actual date, as a portfolio's buyer prices the cash it receives then). */
  installments: readonly { due_date: IsoDate; nominal_due_date?: IsoDate; payment: Centavos }[];
};

export type EarlyPayoffResult = {
  /** Amount that settles all given installments on payoffDate. */
  amount: Centavos;
  /** Sum of face values of the installments. */
  face_value: Centavos;
  /** Interest waived by paying early (CDC art. 52 §2): face_value − amount. */
  discount: Centavos;
};

// Present value at the contract rate: each installment due after payoffDate is divided by (1+i)^t, t = whole months +
// leftover days/30 from payoffDate to its NOMINAL due date — the end of the period its interest was computed on
// (schedule-setup.ts: amounts run on nominal periods; the due date rule only moves the day it is paid). Discounting to
// the moved date instead took interest for days the schedule never charged (`following`: R$ 16,30 under the principal
// on day 0 of a 60-month loan at 8%) or charged interest for no time (`preceding`). With the same convention as the
// grace period, a payoff on the disbursement date returns the principal, and one right after installment k the
// schedule's closing balance after k, whatever the due date rule — up to the schedule's interest rounding (≤ ½
// centavo per row, schedule-setup.ts). The ACTUAL due date decides what is already due: installments due on or before
// payoffDate count at face value (late charges are separate), and so does one whose nominal date has passed while its
// moved date has not (t = 0: its period's interest is all owed). Values are summed exactly and rounded half-up once.
/** (1+i)^t by rate, payoff date and the date discounted to: a portfolio's contracts share their due dates, and each power is the
 *  exact-decimal work of a line (an assignment of 1,000 contracts prices ≈ 90,000 lines). Exact either way; keyed by
 *  all three, so one cache may serve any calls. */
export type DivisorCache = Map<string, D.Decimal>;

export function earlyPayoff(input: EarlyPayoffInput, divisors: DivisorCache = new Map()): EarlyPayoffResult {
  const onePlusRate = D.add(D.ONE, parseRate(input.monthlyRate, "monthlyRate"));
  let total = D.ZERO;
  let face = 0;
  for (const { due_date, nominal_due_date = due_date, payment } of input.installments) {
    assertCentavos(payment, "payment");
    face += payment;
    const amount = D.fromInt(payment);
    if (daysBetween(input.payoffDate, due_date) <= 0 || daysBetween(input.payoffDate, nominal_due_date) <= 0) {
      total = D.add(total, amount);
      continue;
    }
    const key = `${input.monthlyRate}|${input.payoffDate}|${nominal_due_date}`;
    let divisor = divisors.get(key);
    if (divisor === undefined) {
      divisor = pow(onePlusRate, periodExponent(input.payoffDate, nominal_due_date));
      divisors.set(key, divisor);
    }
    total = D.add(total, D.div(amount, divisor));
  }
  const amount = roundCentavos(total);
  return { amount, face_value: face, discount: face - amount };
}
