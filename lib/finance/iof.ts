import * as D from "./decimal";
import { daysBetween, type IsoDate } from "./date";
import { applyRate, assertCentavos, roundCentavos, type Centavos } from "./money";
import { parseRate } from "./rates";

export type BorrowerKind = "PF" | "PJ";

// IOF-crédito rates (Decreto 6.306/2007 and amendments) come from product configuration, never code.
export type IofConfig = {
  /** Daily rate for individuals, e.g. "0.000082" (0.0082% a.d.). */
  dailyRatePF: string;
  /** Daily rate for companies: "0.000041" historically, "0.000082" under Decreto 12.499/2025. */
  dailyRatePJ: string;
  /** Flat additional rate on the principal, e.g. "0.0038". */
  additionalRate: string;
  /** Cap on days per installment; 365 by law. */
  maxDays?: number;
};

export type IofInput = {
  borrower: BorrowerKind;
  principal: Centavos;
  disbursementDate: IsoDate;
  installments: readonly { due_date: IsoDate; amortization: Centavos }[];
};

export type IofBreakdown = { daily: Centavos; additional: Centavos; total: Centavos };

// daily = Σ amortizationₖ × dailyRate × min(daysₖ, 365), summed exactly then rounded half-up once;
// additional = principal × additionalRate, half-up. The base is the principal amortized in each
// installment. A negative amortization (a long first period whose interest exceeds the installment) is
// interest capitalized into the balance, not principal: later amortizations repay it first — payments go
// to overdue interest before capital (Código Civil art. 354) — and only the rest is taxed, so the taxed
// amortizations still add up to the principal.
export function computeIof(input: IofInput, config: IofConfig): IofBreakdown {
  const dailyRate = parseRate(input.borrower === "PF" ? config.dailyRatePF : config.dailyRatePJ, "dailyRate");
  const additionalRate = parseRate(config.additionalRate, "additionalRate");
  const maxDays = config.maxDays ?? 365;
  let base = 0n; // Σ taxed amortization × days, exact integer centavo-days
  let capitalized = 0; // interest added to the balance by negative amortizations, not yet repaid
  for (const { due_date, amortization } of input.installments) {
    assertCentavos(amortization, "amortization");
    const days = daysBetween(input.disbursementDate, due_date);
    if (days < 0) throw new RangeError(`due date ${due_date} is before disbursement`);
    if (amortization < 0) {
      capitalized -= amortization;
      continue;
    }
    const repaysInterest = Math.min(capitalized, amortization);
    capitalized -= repaysInterest;
    base += BigInt(amortization - repaysInterest) * BigInt(Math.min(days, maxDays));
  }
  const daily = roundCentavos(D.mul(D.fromInt(base), dailyRate));
  const additional = applyRate(assertCentavos(input.principal, "principal"), additionalRate);
  return { daily, additional, total: daily + additional };
}
