import { DomainError } from "@/lib/errors";
import { decimal, formatReais } from "@/lib/finance";
import { PRODUCTS, type ProductCode } from "@/lib/products";

// The product's rules (lib/products.ts is their one configuration): term, rate cap, principal range.
// Any break is a 400 `product_rule_violation` naming each offending field.

type FieldError = { param: string; in: "body"; message: string };

function violation(product: ProductCode, errors: FieldError[]): DomainError {
  return new DomainError("product_rule_violation", `The simulation breaks the rules of product ${product}`, { errors });
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
