import { DomainError } from "@/lib/errors";
import {
  addMonths,
  annualFromMonthly,
  buildSchedule,
  cashFlowsFromSchedule,
  cetPercents,
  computeIof,
  daysBetween,
  decimal,
  pow,
  periodExponent,
  roundCentavos,
  largestPayment,
  scheduleTotals,
  solveFinancedPrincipal,
  type AdjustRule,
  type AmortizationSystem,
  type BorrowerKind,
  type Centavos,
  type Installment,
  type IofBreakdown,
  type IsoDate,
  type ScheduleInput,
} from "@/lib/finance";
import { IOF_RATES, type ProductCode } from "@/lib/products";
import { checkPrincipal } from "./product-rules";
import type { SimulationResponse } from "./schemas";

// The simulation itself: every amount comes from lib/finance (integer centavos, exact decimals).
//   principal = net + financed fees (+ IOF when financed, solved so that principal − IOF − financed fees = net)
//   released  = principal − financed fees − financed IOF     (the credit the borrower receives)
//   upfront   = fees not financed (+ IOF when not financed)  (paid by the borrower on the disbursement date)
//   CET: FC₀ = released − upfront on the disbursement date, FCⱼ = each installment on its actual due date.

export type Fee = { type: "origination" | "registration" | "insurance"; amount: Centavos; financed: boolean };

export type SimulationTerms = {
  product: ProductCode;
  amount: { kind: "requested" | "installment"; value: Centavos };
  term: number;
  monthlyRate: string;
  amortization: AmortizationSystem;
  disbursementDate: IsoDate;
  /** Nominal first due date; undefined = one month after disbursement (month ends kept, e.g. Jan 31 → Feb 28 → Mar 31). */
  firstDueDate?: IsoDate;
  dueDateRule: AdjustRule;
  borrowerKind: BorrowerKind;
  iofFinanced: boolean;
  fees: Fee[];
};

/** What is computed; `tax_rate` (deprecated) is only `monthly_rate` under its old name, added by the serializer. */
export type SimulationResult = Omit<SimulationResponse, "id" | "object" | "customer_id" | "environment" | "created_at" | "tax_rate">;

type Computed = { schedule: Installment[]; iof: IofBreakdown };

export function computeSimulation(terms: SimulationTerms): SimulationResult {
  const amountParam = terms.amount.kind === "requested" ? "requested_amount" : "installment_amount";
  const financedFees = sum(terms.fees.filter((f) => f.financed));
  const upfrontFees = sum(terms.fees.filter((f) => !f.financed));
  const at = memoized(terms);

  let principal: Centavos;
  if (terms.amount.kind === "installment") principal = principalForInstallment(terms, at);
  else if (terms.iofFinanced) principal = solveFinancedPrincipal(terms.amount.value + financedFees, (p) => at(p).iof.total).principal;
  else principal = terms.amount.value + financedFees;
  checkPrincipal(terms.product, principal, amountParam);

  const { schedule, iof } = at(principal);
  const released = principal - financedFees - (terms.iofFinanced ? iof.total : 0);
  const upfront = upfrontFees + (terms.iofFinanced ? 0 : iof.total);
  if (released <= 0 || released - upfront <= 0) {
    throw invalid(amountParam, "The fees and IOF leave nothing to release: raise the amount or lower the fees");
  }
  const cet = cetOf(terms, released - upfront, schedule, amountParam);
  const totals = scheduleTotals(schedule);

  return {
    product: terms.product,
    amortization: terms.amortization,
    term: terms.term,
    monthly_rate: terms.monthlyRate,
    annual_rate: decimal.toFixed(decimal.parse(annualFromMonthly(terms.monthlyRate)), 8),
    borrower_kind: terms.borrowerKind,
    requested_amount: terms.amount.kind === "requested" ? terms.amount.value : null,
    principal,
    released_amount: released,
    upfront_charges: upfront,
    installment_amount: schedule[0]!.payment,
    max_installment_amount: largestPayment(schedule),
    iof: { daily: iof.daily, additional: iof.additional, total: iof.total, financed: terms.iofFinanced },
    fees: terms.fees.map((f) => ({ type: f.type, amount: f.amount, financed: f.financed })),
    totals: { payments: totals.payment, interest: totals.interest, amortization: totals.amortization },
    cet: { monthly_percent: cet.monthlyPercent, annual_percent: cet.annualPercent },
    disbursement_date: terms.disbursementDate,
    first_due_date: terms.firstDueDate ?? addMonths(terms.disbursementDate, 1),
    due_date_rule: terms.dueDateRule,
    schedule,
    iof_schedule: iof.rows,
  };
}

// The CET has no finite solution only when upfront charges leave a few centavos of a large loan released.
function cetOf(terms: SimulationTerms, netReleased: Centavos, schedule: Installment[], amountParam: string) {
  try {
    return cetPercents({ disbursementDate: terms.disbursementDate, released: netReleased, flows: cashFlowsFromSchedule(schedule) });
  } catch (err) {
    if (err instanceof RangeError) throw invalid(amountParam, "The upfront charges leave too little released to compute a CET");
    throw err;
  }
}

const sum = (fees: Fee[]) => fees.reduce((total, f) => total + f.amount, 0);

const invalid = (param: string, message: string) =>
  new DomainError("validation_error", message, { errors: [{ param, in: "body", message }] });

// Schedule + IOF per candidate principal, cached: the IOF solver and the installment solver ask for
// the same principals more than once, and each costs a whole schedule. Amounts run on nominal periods
// whatever the due date rule (ScheduleInput), so only the first build moves due dates off holidays;
// later candidates reuse those dates (moving 96 dates costs more than the schedule's arithmetic).
function memoized(terms: SimulationTerms): (principal: Centavos) => Computed {
  const cache = new Map<Centavos, Computed>();
  const input: Omit<ScheduleInput, "principal"> = {
    monthlyRate: terms.monthlyRate,
    installments: terms.term,
    disbursementDate: terms.disbursementDate,
    firstDueDate: terms.firstDueDate,
    dueDateRule: terms.dueDateRule,
  };
  let dueDates: IsoDate[] | undefined;
  const scheduleFor = (principal: Centavos): Installment[] => {
    if (dueDates === undefined) {
      const schedule = buildSchedule(terms.amortization, { ...input, principal });
      dueDates = schedule.map((row) => row.due_date);
      return schedule;
    }
    const moved = dueDates;
    return buildSchedule(terms.amortization, { ...input, dueDateRule: "keep", principal }).map((row, k) => ({ ...row, due_date: moved[k]! }));
  };
  return (principal) => {
    const hit = cache.get(principal);
    if (hit) return hit;
    const schedule = scheduleFor(principal);
    checkSchedule(terms, schedule);
    const iof = computeIof(
      { borrower: terms.borrowerKind, principal, disbursementDate: terms.disbursementDate, installments: schedule },
      IOF_RATES,
    );
    const computed = { schedule, iof };
    cache.set(principal, computed);
    return computed;
  };
}

// A `preceding` rule could pull the first due date onto the disbursement date: a 400. (A first period so
// long that its interest exceeds the installment amortizes a negative amount: that interest is
// capitalized, and lib/finance's IOF treats it as such.)
function checkSchedule(terms: SimulationTerms, schedule: Installment[]): void {
  if (daysBetween(terms.disbursementDate, schedule[0]!.due_date) <= 0) {
    throw invalid("first_due_date", "The first due date, after the due date rule, must be after the disbursement date");
  }
}

// Price: the largest principal none of whose installments exceeds the desired one — the last included, which takes
// the rounding residue: at the principal whose first installment is just under the target, every installment is
// rounded down by up to ½ centavo and the last collects that shortfall with interest (≈ 1 real over 96 months), so
// a loan sized to the payroll margin would never fit it. The first installment is PV·factor⁻¹·delay rounded
// half-up: the estimate is just under (target + ½)·factor/delay; from there a search on the whole schedule (the
// library's own) finds the principal.
function principalForInstallment(terms: SimulationTerms, at: (p: Centavos) => Computed): Centavos {
  const target = terms.amount.value;
  const rate = decimal.parse(terms.monthlyRate);
  const firstDue = terms.firstDueDate ?? addMonths(terms.disbursementDate, 1);
  const growth = decimal.add(decimal.ONE, rate);
  const factor = decimal.isZero(rate)
    ? decimal.fromInt(terms.term)
    : decimal.div(decimal.sub(decimal.ONE, decimal.powInt(growth, -terms.term)), rate);
  const delay = decimal.isZero(rate) ? decimal.ONE : pow(growth, decimal.sub(periodExponent(terms.disbursementDate, firstDue), decimal.ONE));
  const halfUp = decimal.add(decimal.fromInt(target), decimal.fromRatio(1, 2));
  const estimate = roundCentavos(decimal.div(decimal.mul(halfUp, factor), delay), "down");

  const fits = (p: Centavos) => at(p).schedule.every((row) => row.payment <= target);
  // Down from the estimate in doubling steps to a principal that fits, then bisect up to the last one that does.
  let high = Math.max(estimate, 1);
  let low = high;
  for (let step = 1; !fits(low); step *= 2) {
    if (low === 1) throw invalid("installment_amount", "Too small: no principal has an installment this low");
    high = low;
    low = Math.max(1, low - step);
  }
  if (low === high) {
    for (let guard = 0; guard < 100 && fits(low + 1); guard += 1) low += 1; // the estimate fitted: any centavo more?
    return low;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid;
  }
  return low;
}
