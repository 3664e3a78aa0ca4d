import * as D from "./decimal";
import { exp } from "./decimal-math";
import { daysBetween, type IsoDate } from "./date";
import { assertCentavos, assertPositiveCentavos, type Centavos } from "./money";

// The exact CET solver (fixed-point decimals, 36 digits): the reference every faster path in cet.ts must
// agree with, and their fallback. Res. CMN 4.881/2020: the annual rate solving Σ FCⱼ / (1+CET)^((dⱼ−d₀)/365) = FC₀.
export type CashFlow = { date: IsoDate; amount: Centavos };

export type CetInput = {
  disbursementDate: IsoDate;
  /** FC₀: what the borrower actually receives on the disbursement date (after upfront IOF/fees). */
  released: Centavos;
  /** Every later payment: installments plus fees, taxes or insurance paid separately. */
  flows: readonly CashFlow[];
};

export type CetResult = {
  annualRate: string; // full precision (decimal fraction, 20 places)
  monthlyRate: string;
  annualPercent: string; // "26.82"
  monthlyPercent: string;
  iterations: number;
};

/** A cash flow as days after disbursement (sorted ascending) and integer centavos. */
export type Term = { days: number; amount: number };

export function toTerms({ disbursementDate, flows }: CetInput): Term[] {
  if (flows.length === 0) throw new RangeError("CET needs at least one payment");
  const terms = flows.map(({ date, amount }) => {
    const days = daysBetween(disbursementDate, date);
    if (days <= 0) throw new RangeError(`cash flow on ${date} must be after disbursement ${disbursementDate}`);
    if (assertCentavos(amount, "cash flow") < 0) throw new RangeError(`negative cash flow on ${date}`);
    return { days, amount };
  });
  return terms.sort((a, b) => a.days - b.days);
}

export const releasedOf = (input: CetInput): Centavos => assertPositiveCentavos(input.released, "released");

// Solved in x = ln(1+CET): f(x) = Σ FCⱼ·e^(−x·dⱼ/365) − FC₀ is convex and strictly decreasing, so a
// sign-change bracket always exists. Each step tries Newton and falls back to bisection when the
// Newton point leaves the bracket; stops when the step is below 1e-30 (rates exact to ~1e-28).
// This is the solver of releases before 1.4.0, unchanged: cet.ts starts it from a float estimate instead.
export function solveBracketed(terms: readonly Term[], released: Centavos): { x: D.Decimal; iterations: number } {
  const fc0 = BigInt(released);
  const f = (x: D.Decimal) => evaluate(terms, fc0, x);
  let lo = D.fromInt(-1);
  let hi = D.fromInt(1);
  for (let i = 0; f(lo).value.raw < 0n; i += 1) lo = expand(lo, i);
  for (let i = 0; f(hi).value.raw > 0n; i += 1) hi = expand(hi, i);
  let x = D.ZERO;
  let iterations = 0;
  for (; iterations < 300; iterations += 1) {
    const { value, slope } = f(x);
    if (value.raw === 0n) break;
    if (value.raw > 0n) lo = x;
    else hi = x;
    const newton = slope.raw === 0n ? undefined : D.sub(x, D.div(value, slope));
    const next = newton && D.cmp(newton, lo) > 0 && D.cmp(newton, hi) < 0 ? newton : D.div(D.add(lo, hi), D.fromInt(2));
    const moved = D.abs(D.sub(next, x)).raw;
    x = next;
    if (moved < TOLERANCE) break;
  }
  return { x, iterations };
}

// Newton without a bracket, from a start already near the root (cet.ts gets it from float arithmetic).
// f is convex and decreasing, so from any start the Newton point lands at or left of the root and the
// iterates then rise monotonically to it: from a start within ~1e-12 it takes 2–3 steps. Stops by the
// same rule as solveBracketed (a step below 1e-30); undefined if that does not happen within 20 steps.
export function polishNewton(terms: readonly Term[], released: Centavos, start: D.Decimal): { x: D.Decimal; iterations: number } | undefined {
  const fc0 = BigInt(released);
  let x = start;
  for (let iterations = 1; iterations <= 20; iterations += 1) {
    const { value, slope } = evaluate(terms, fc0, x);
    if (value.raw === 0n) return { x, iterations };
    if (slope.raw === 0n) return undefined;
    const next = D.sub(x, D.div(value, slope));
    const moved = D.abs(D.sub(next, x)).raw;
    x = next;
    if (moved < TOLERANCE) return { x, iterations };
  }
  return undefined;
}

/**
 * Annual and monthly rates of x = ln(1+CET), formatted as the API reports them: each rate rounded half-up
 * to 20 places (the solver is exact to ~1e-28), and its percent that 20-place rate × 100 rounded half-up to
 * 2 places. The percent is read from the rounded rate, not from the 36-digit root: on an exact tie
 * (100 released, 350 paid 73 days later: CET = 3.5^5 − 1 = 524.21875 exactly) the root lies ~1e-33 to one
 * side or the other depending on where the solver started, and the percent (52421.87 or .88) followed it.
 */
export function ratesOf(x: D.Decimal, iterations: number): CetResult {
  const annualRate = D.toFixed(D.sub(exp(x), D.ONE), 20);
  const monthlyRate = D.toFixed(D.sub(exp(D.div(x, D.fromInt(12))), D.ONE), 20);
  const percent = (rate: string) => D.toFixed(D.mulInt(D.parse(rate), 100), 2);
  return { annualRate, monthlyRate, annualPercent: percent(annualRate), monthlyPercent: percent(monthlyRate), iterations };
}

const TOLERANCE = D.SCALE / 10n ** 30n;

// Widens the bracket geometrically up to x = ±512 (CET ≈ 10^222 a.a.), past anything meaningful.
function expand(bound: D.Decimal, attempt: number): D.Decimal {
  if (attempt > 8) throw new RangeError("CET has no solution: check released amount and cash flows");
  return D.mul(bound, D.fromInt(2));
}

// f(x) and f'(x). Discount factors e^(−x·d/365) are built as powers of one daily factor, walking
// the sorted days; monthly schedules have only a handful of distinct gaps (28–31 days), so each gap's
// power is computed once per evaluation: one exp, a few powers, then one multiplication per flow.
function evaluate(terms: readonly Term[], fc0: bigint, x: D.Decimal): { value: D.Decimal; slope: D.Decimal } {
  const daily = exp(D.neg(D.div(x, D.fromInt(365))));
  let factor = D.ONE;
  let day = 0;
  let value = D.fromInt(-fc0);
  let weighted = D.ZERO; // Σ FCⱼ·dⱼ·e^(−x·dⱼ/365); f'(x) = −weighted/365
  const gapPowers = new Map<number, D.Decimal>();
  for (const { days, amount } of terms) {
    const gap = days - day;
    let step = gapPowers.get(gap);
    if (step === undefined) {
      step = D.powInt(daily, gap);
      gapPowers.set(gap, step);
    }
    factor = D.mul(factor, step);
    day = days;
    const discounted = D.mulInt(factor, amount);
    value = D.add(value, discounted);
    weighted = D.add(weighted, D.mulInt(discounted, days));
  }
  return { value, slope: D.neg(D.div(weighted, D.fromInt(365))) };
}
