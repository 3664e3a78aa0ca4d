import * as D from "./decimal";
import {
  polishNewton,
  ratesOf,
  releasedOf,
  solveBracketed,
  toTerms,
  type CashFlow,
  type CetInput,
  type CetResult,
  type Term,
} from "./cet-exact";
import type { Centavos } from "./money";

export type { CashFlow, CetInput, CetResult } from "./cet-exact";

// CET (Res. CMN 4.881/2020): the annual rate solving Σ FCⱼ / (1+CET)^((dⱼ−d₀)/365) = FC₀, in x = ln(1+CET).
// The exact solver (cet-exact.ts, 36-digit decimals) costs ~10 evaluations of ~100 BigInt operations
// per flow. Both functions here first find the root with float Newton (microseconds), then:
// - computeCet polishes it with 2–3 exact Newton steps (same stopping rule, same result: 20 places);
// - cetPercents keeps the float root when its proven error bound cannot change the 2-decimal percents,
//   and otherwise (a value within ~1e-4 of a hundredth of a percent of a rounding boundary: about 1
//   call in 5,000) answers with computeCet. Either way the percents equal the exact solver's.
// lib/finance/cet.property.test.ts checks both against solveBracketed over thousands of random loans.

export function computeCet(input: CetInput): CetResult {
  const released = releasedOf(input);
  const terms = toTerms(input);
  return ratesOf(...exactRoot(terms, released));
}

export type CetPercents = { annualPercent: string; monthlyPercent: string };

export function cetPercents(input: CetInput): CetPercents {
  const released = releasedOf(input);
  const terms = toTerms(input);
  const root = floatRoot(terms, released);
  if (root !== undefined) {
    const annualPercent = certifiedPercent(root.x, root.error);
    const monthlyPercent = certifiedPercent(root.x / 12, root.error / 12);
    if (annualPercent !== undefined && monthlyPercent !== undefined) return { annualPercent, monthlyPercent };
  }
  const { annualPercent, monthlyPercent } = ratesOf(...exactRoot(terms, released));
  return { annualPercent, monthlyPercent };
}

function exactRoot(terms: readonly Term[], released: Centavos): [D.Decimal, number] {
  const root = floatRoot(terms, released);
  // |x| < 8 (CET below ~300,000% a.a.) keeps x·10^15 a safe integer for the conversion.
  const start = root && Math.abs(root.x) < 8 ? D.fromRatio(Math.round(root.x * 1e15), 1e15) : undefined;
  const polished = start && polishNewton(terms, released, start);
  const { x, iterations } = polished ?? solveBracketed(terms, released);
  return [x, iterations];
}

const EPS = Number.EPSILON; // 2^-52: a float operation errs by at most EPS/2 relative

// Float Newton on f(x) = Σ aⱼ·e^(−x·tⱼ) − a₀, tⱼ = dⱼ/365. Start: by Jensen (e^(−x·t) is convex in t),
// Σ aⱼ·e^(−x·tⱼ) ≥ A·e^(−x·t̄) with A = Σ aⱼ and t̄ = Σ aⱼtⱼ / A, so x₀ = ln(A/a₀)/t̄ has f(x₀) ≥ 0: x₀ is at
// or left of the root and Newton on a convex decreasing f rises monotonically from there.
//
// Error bound of the returned x (stated with `error`). Each term aⱼ·e^(−x·tⱼ) is computed with relative
// error ≤ (2|x|·tⱼ + 2)·EPS (tⱼ and x·tⱼ rounded, exp within 1 ulp, the product), and the n-term sum adds
// ≤ n·EPS of Σ|terms|; at the root Σ aⱼe^(−x·tⱼ) = a₀. So |f_float(x) − f(x)| ≤ (2|x|·t_max + n + 3)·EPS·a₀
// near the root, while |f'(x)| = Σ aⱼtⱼe^(−x·tⱼ) ≥ t_min·a₀. A point where f_float changes sign is thus
// within (2|x|·t_max + n + 3)·EPS/t_min of the true root; the last Newton step (≤ the stopping size) is added.
function floatRoot(terms: readonly Term[], released: Centavos): { x: number; error: number } | undefined {
  const n = terms.length;
  const t = new Float64Array(n);
  const a = new Float64Array(n);
  let total = 0;
  let weighted = 0;
  for (let j = 0; j < n; j += 1) {
    t[j] = terms[j]!.days / 365;
    a[j] = terms[j]!.amount;
    total += a[j]!;
    weighted += a[j]! * t[j]!;
  }
  if (total <= 0) return undefined;
  const tMin = t[0]!;
  const tMax = t[n - 1]!;
  let x = Math.log(total / released) / (weighted / total);
  for (let i = 0; i < 100; i += 1) {
    let value = -released;
    let slope = 0;
    for (let j = 0; j < n; j += 1) {
      const discounted = a[j]! * Math.exp(-x * t[j]!);
      value += discounted;
      slope -= discounted * t[j]!;
    }
    if (!Number.isFinite(value) || !(slope < 0)) return undefined;
    const step = value / slope;
    x -= step;
    if (!Number.isFinite(x)) return undefined;
    if (Math.abs(step) <= 1e-13 * Math.max(1, Math.abs(x))) {
      const error = ((2 * Math.abs(x) * tMax + n + 3) * EPS) / tMin + Math.abs(step);
      return { x, error };
    }
  }
  return undefined;
}

// (e^x − 1)·100 rounded half-up (away from zero) to 2 decimals, as ratesOf does with the exact rate —
// or undefined when the float value lies too close to a rounding boundary (…5 in the third decimal)
// to be sure which way the exact one rounds. In hundredths of a percent v = (e^x − 1)·10^4; an error
// δ in x moves v by ≤ 10^4·e^(x+δ)·δ; expm1 and the scaling add a few ulps of v. The margin required is
// 64 times that bound.
function certifiedPercent(x: number, error: number): string | undefined {
  const v = Math.expm1(x) * 1e4;
  const w = Math.abs(v);
  if (!Number.isFinite(w) || w > 2 ** 40) return undefined;
  const bound = 1e4 * Math.exp(x + error) * error + 8 * EPS * Math.max(1, w);
  const floor = Math.floor(w);
  const fraction = w - floor;
  if (Math.abs(fraction - 0.5) <= 64 * bound) return undefined;
  const hundredths = fraction > 0.5 ? floor + 1 : floor;
  const body = `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, "0")}`;
  return v < 0 && hundredths !== 0 ? `-${body}` : body;
}

// Installments as CET cash flows (payment on each due date).
export function cashFlowsFromSchedule(installments: readonly { due_date: string; payment: Centavos }[]): CashFlow[] {
  return installments.map(({ due_date, payment }) => ({ date: due_date, amount: payment }));
}
