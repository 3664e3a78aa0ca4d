import type { Prisma } from "@prisma/client";
import { z } from "zod";
import type { LateRules } from "@/lib/collection/allocation";
import { PRODUCTS, type ProductCode } from "@/lib/products";

// A contract's late charges — fine (multa) once and monthly late interest (juros de mora) pro rata die — are part of
// what the borrower signs: frozen into the proposal's terms when it is made (`late_charges`, shown before signature)
// and copied into the contract's, so a later change of a product's rates (lib/products.ts) applies to new proposals
// only. Contracts and proposals made before terms carried them had theirs written by migration
// 20261125120000_late_charges_terms (the rates then in force); the product's rates remain only as a fallback.
//
// The contract's remunerative interest is not charged during the delay (the reference lists it among common market
// practice, to be configurable): late charges are the fine and the late interest only (README, Collection).

export const LateChargesSchema = z
  .object({
    fine_rate: z.string().meta({ description: "Fine (multa) charged once on an installment's open amount when it becomes late, e.g. \"0.02\" (CDC art. 52 §1 caps it at 2%)." }),
    monthly_interest_rate: z.string().meta({ description: "Late interest (juros de mora) per month, simple, pro rata die (rate × days/30), e.g. \"0.01\"." }),
  })
  .meta({
    description:
      "The late charges as contracted, frozen when the proposal was made. An installment due on a weekend or national holiday is late only after the next business day (Lei 7.089/1983); the contract's remunerative interest is not charged during the delay.",
  });

export type FrozenLateCharges = z.infer<typeof LateChargesSchema>;

/** What a contract issued now for `product` freezes into its terms. */
export function lateChargesFor(product: string): FrozenLateCharges {
  const rules = PRODUCTS[product as ProductCode] ?? PRODUCTS.personal_loan;
  return { fine_rate: rules.lateFineRate, monthly_interest_rate: rules.lateMonthlyInterestRate };
}

/** The late charges of a contract, from its terms. */
export function frozenLateCharges(terms: Prisma.JsonValue): FrozenLateCharges {
  const frozen = (terms as { late_charges?: FrozenLateCharges; product?: string } | null) ?? {};
  return frozen.late_charges ?? lateChargesFor(frozen.product ?? "personal_loan");
}

/** The same, as the allocation and late-charge computations take them. */
export function lateRulesOfTerms(terms: Prisma.JsonValue): LateRules {
  const frozen = frozenLateCharges(terms);
  return { fineRate: frozen.fine_rate, monthlyLateInterestRate: frozen.monthly_interest_rate };
}
