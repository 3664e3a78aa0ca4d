import { daysBetween, type IsoDate } from "./date";
import { applyRate, applyRateProRata, assertCentavos, type Centavos } from "./money";
import { parseRate } from "./rates";

export type BorrowerKind = "PF" | "PJ";

// IOF-crédito rates (Decreto 6.306/2007 and amendments) come from product configuration, never code.
export type IofConfig = {
  /** Daily rate for individuals, e.g. "0.000082" (0.0082% a.d.). */
  dailyRatePF: string;
  /** Daily rate for companies: "0.000041" historically, "0.000082" under Decreto 12.499/2025. */
  dailyRatePJ: string;
  /** Flat additional rate on the principal for individuals: "0.0038". */
  additionalRatePF: string;
  /** Flat additional rate on the principal for companies: "0.0038" historically, "0.0095" under Decreto 12.499/2025. */
  additionalRatePJ: string;
  /** Cap on days per installment; 365 by law. */
  maxDays?: number;
};

export type IofInput = {
  borrower: BorrowerKind;
  principal: Centavos;
  disbursementDate: IsoDate;
  installments: readonly { due_date: IsoDate; amortization: Centavos }[];
};

/** One installment's daily IOF, rounded on its own row. */
export type IofRow = {
  number: number;
  due_date: IsoDate;
  /** Days from disbursement to the due date, capped at maxDays (365). */
  days: number;
  /** Principal amortized in this installment (capitalized interest repaid first is not principal; see computeIof). */
  base: Centavos;
  /** round_half_up(base × daily rate × days). */
  iof: Centavos;
};

export type IofBreakdown = { daily: Centavos; additional: Centavos; total: Centavos; rows: IofRow[] };

// Each row: iof = base × dailyRate × min(days, 365), rounded half-up to the centavo on that row, so a
// person checks every row from the figures shown; daily = Σ rows' iof (the total of what is shown);
// additional = principal × the borrower's additional rate, half-up; total = daily + additional. The base is the
// principal amortized in each installment. A negative amortization (a long first period whose interest
// exceeds the installment) is interest capitalized into the balance, not principal (base 0): later
// amortizations repay it first — payments go to overdue interest before capital (Código Civil art. 354)
// — and only the rest is taxed, so the bases still add up to the principal.
export function computeIof(input: IofInput, config: IofConfig): IofBreakdown {
  const dailyRate = parseRate(input.borrower === "PF" ? config.dailyRatePF : config.dailyRatePJ, "dailyRate");
  const additionalRate = parseRate(input.borrower === "PF" ? config.additionalRatePF : config.additionalRatePJ, "additionalRate");
  const maxDays = config.maxDays ?? 365;
  const rows: IofRow[] = [];
  let daily = 0;
  let capitalized = 0; // interest added to the balance by negative amortizations, not yet repaid
  input.installments.forEach(({ due_date, amortization }, k) => {
    assertCentavos(amortization, "amortization");
    const actualDays = daysBetween(input.disbursementDate, due_date);
    if (actualDays < 0) throw new RangeError(`due date ${due_date} is before disbursement`);
    const days = Math.min(actualDays, maxDays);
    let base = 0;
    if (amortization < 0) capitalized -= amortization;
    else {
      const repaysInterest = Math.min(capitalized, amortization);
      capitalized -= repaysInterest;
      base = amortization - repaysInterest;
    }
    const iof = applyRateProRata(base, dailyRate, days, 1);
    daily += iof;
    rows.push({ number: k + 1, due_date, days, base, iof });
  });
  const additional = applyRate(assertCentavos(input.principal, "principal"), additionalRate);
  return { daily, additional, total: daily + additional, rows };
}
