import type { Prisma } from "@prisma/client";
import type { LateRules } from "@/lib/collection/allocation";
import { PRODUCTS, type ProductCode } from "@/lib/products";

// A contract's late charges — fine (multa) once and monthly late interest (juros de mora) pro rata die — are part of
// what the borrower signed: frozen into its terms when it is issued (`late_charges`), so a later change of a product's
// rates (lib/products.ts) applies to new contracts only. Contracts issued before the terms carried them use their
// product's rates, which are the ones they were issued under.
//
// The contract's remunerative interest is not charged during the delay (the reference lists it among common market
// practice, to be configurable): late charges are the fine and the late interest only (README, Collection).

export type FrozenLateCharges = { fine_rate: string; monthly_interest_rate: string };

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
