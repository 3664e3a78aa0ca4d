import { DomainError } from "@/lib/errors";
import { applyRate, cashFlowsFromSchedule, computeCet, daysBetween, decimal, formatReais } from "@/lib/finance";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import type { SimulationResult } from "./compute";

// The product's rules (lib/products.ts is their one configuration): term, rate cap and principal range
// (400 `product_rule_violation`), fee caps (400 `fee_above_cap`) and the CET ceiling (400
// `cet_above_ceiling`), each naming the offending fields.

type FieldError = { param: string; in: "body"; message: string };

function violation(product: ProductCode, errors: FieldError[]): DomainError {
  return new DomainError("product_rule_violation", `The simulation breaks the rules of product ${product}`, { errors });
}

/** The product's term alone (a risk pre-qualification's inline terms carry no rate): 400 product_rule_violation. */
export function checkTerm(product: ProductCode, term: number, param = "term"): void {
  const rules = PRODUCTS[product];
  if (term >= rules.minTermMonths && term <= rules.maxTermMonths) return;
  throw new DomainError("product_rule_violation", `The terms break the rules of product ${product}`, {
    errors: [{ param, in: "body", message: `Must be from ${rules.minTermMonths} to ${rules.maxTermMonths} months for ${product}` }],
  });
}

/** Term and rate: checked before any computation. `rateParam` is the field the rate came from. */
export function checkTermAndRate(product: ProductCode, term: number, monthlyRate: string, rateParam: string): void {
  const rules = PRODUCTS[product];
  const errors: FieldError[] = [];
  if (term < rules.minTermMonths || term > rules.maxTermMonths) {
    errors.push({ param: "term", in: "body", message: `Must be from ${rules.minTermMonths} to ${rules.maxTermMonths} months for ${product}` });
  }
  if (decimal.cmp(decimal.parse(monthlyRate), decimal.parse(rules.maxMonthlyRate)) > 0) {
    errors.push({ param: rateParam, in: "body", message: `Must be at most ${rules.maxMonthlyRate} (monthly) for ${product}` });
  }
  if (errors.length > 0) throw violation(product, errors);
}

/** The amortization system must be one the product offers (payroll products: Price, one fixed deduction). */
export function checkAmortization(product: ProductCode, amortization: "price" | "sac"): void {
  const offered = PRODUCTS[product].amortizations;
  if (offered.includes(amortization)) return;
  throw violation(product, [
    { param: "amortization", in: "body", message: `${product} offers ${offered.join(", ")} only: the paying source deducts one fixed installment a month` },
  ]);
}

/** The financed principal (requested or solved) must lie in the product's range. */
export function checkPrincipal(product: ProductCode, principal: number, amountParam: string): void {
  const { minAmount, maxAmount } = PRODUCTS[product];
  if (principal >= minAmount && principal <= maxAmount) return;
  throw violation(product, [
    {
      param: amountParam,
      in: "body",
      message: `The financed principal (${formatReais(principal)}) must be from ${formatReais(minAmount)} to ${formatReais(maxAmount)} BRL for ${product}`,
    },
  ]);
}

type Params = { rateParam: string; amountParam: string };

/**
 * After computing: each fee within its cap (a fraction of the released amount), then the annual CET
 * within the product's ceiling. A CET above it names the terms that push it there, found by recomputing
 * the CET without them: the fees (as if given back on the disbursement date), then IOF and fees together
 * (the borrower receiving the whole principal) — what remains is the interest over the chosen dates.
 */
export function checkCharges(result: SimulationResult, params: Params): void {
  checkFees(result);
  checkCet(result, params);
}

function checkFees(result: SimulationResult): void {
  const product = result.product;
  const released = result.released_amount;
  const errors: FieldError[] = [];
  result.fees.forEach((fee, index) => {
    // TAC is forbidden for individuals (Res. CMN 3.518/2007, contracts since 30 April 2008), whatever the product.
    if (fee.type === "origination" && result.borrower_kind === "PF") {
      errors.push({ param: `fees.${index}.type`, in: "body", message: "An origination fee (TAC) is not allowed for individuals (PF)" });
      return;
    }
    const cap = PRODUCTS[product].maxFeeRates[fee.type];
    const capRate = decimal.parse(cap);
    const limit = applyRate(released, capRate, "down");
    if (fee.amount <= limit) return;
    const message = decimal.isZero(capRate)
      ? `${product} allows no ${fee.type} fee`
      : `Must be at most ${percent(cap)}% of the released amount (${formatReais(limit)} of ${formatReais(released)} BRL) for ${product}`;
    errors.push({ param: `fees.${index}.amount`, in: "body", message });
  });
  if (errors.length > 0) throw new DomainError("fee_above_cap", `A fee exceeds the caps of product ${product}`, { errors });
}

function checkCet(result: SimulationResult, params: Params): void {
  const product = result.product;
  const ceiling = PRODUCTS[product].maxAnnualCet;
  const ceilingPercent = decimal.parse(percent(ceiling));
  const above = (annualPercent: string) => decimal.cmp(decimal.parse(annualPercent), ceilingPercent) > 0;
  if (!above(result.cet.annual_percent)) return;

  const cetWith = (released: number) =>
    computeCet({ disbursementDate: result.disbursement_date, released, flows: cashFlowsFromSchedule(result.schedule) }).annualPercent;
  const netReleased = result.released_amount - result.upfront_charges;
  const fees = result.fees.reduce((sum, f) => sum + f.amount, 0);
  const errors: FieldError[] = [];
  let withoutFees = result.cet.annual_percent;
  if (fees > 0) {
    withoutFees = cetWith(netReleased + fees);
    errors.push({ param: "fees", in: "body", message: `The fees (${formatReais(fees)} BRL) raise the CET from ${withoutFees}% to ${result.cet.annual_percent}% a year` });
  }
  if (above(withoutFees)) {
    const interestOnly = cetWith(result.principal);
    const days = daysBetween(result.disbursement_date, result.schedule[0]!.due_date);
    if (!above(interestOnly)) {
      const iof = formatReais(result.iof.total);
      const message = `The IOF (${iof} BRL, ${formatReais(result.iof.additional)} BRL of it charged at once) over a first period of ${days} days and ${result.term} installment(s) gives a CET of ${withoutFees}% a year without fees: a later first_due_date or a longer term lowers it`;
      errors.push({ param: days < 28 ? "first_due_date" : "term", in: "body", message });
    } else {
      errors.push({ param: params.rateParam, in: "body", message: `The interest alone over these due dates gives a CET of ${interestOnly}% a year` });
    }
  }
  throw new DomainError("cet_above_ceiling", `The CET of ${result.cet.annual_percent}% a year exceeds the ${percent(ceiling)}% ceiling of ${product}`, {
    errors,
  });
}

// "0.45" → "45"; "0.015" → "1.5" (a decimal fraction as a percent, no trailing zeros).
function percent(fraction: string): string {
  return decimal.toString(decimal.mul(decimal.parse(fraction), decimal.fromInt(100)));
}
