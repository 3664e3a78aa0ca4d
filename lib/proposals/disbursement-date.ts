import { startOfDayInBrazil, todayInBrazil } from "@/lib/clock";
import { addDays } from "@/lib/finance";
import { DomainError } from "@/lib/errors";
import type { Scope } from "@/lib/scope";
import { PROPOSAL_VALIDITY_DAYS } from "./transitions";

// Production money is released on the disbursement date or later, never before (a contract dated in the past would
// run interest, due dates and the 7-day withdrawal window from a day the borrower had no money). A production
// proposal therefore lives until the end of its disbursement day in Brasília at most: after it, it cannot become a
// contract. The sandbox keeps back-dated proposals on purpose: integrators test late installments with them.

/** Production only: whether `disbursementDate` is before today (Brasília). */
export function disbursementDatePassed(scope: Pick<Scope, "environment">, disbursementDate: string, today = todayInBrazil()): boolean {
  return scope.environment === "production" && disbursementDate < today;
}

/** 422 `disbursement_date_passed` when disbursementDatePassed. */
export function checkDisbursementDate(scope: Scope, disbursementDate: string, whatNow: string, today = todayInBrazil()): void {
  if (disbursementDatePassed(scope, disbursementDate, today)) {
    throw new DomainError("disbursement_date_passed", `The disbursement date (${disbursementDate}) has passed: ${whatNow}`, { disbursement_date: disbursementDate });
  }
}

/** When a new proposal lapses: PROPOSAL_VALIDITY_DAYS from now, and in production no later than the end of its
 *  disbursement day in Brasília. */
export function proposalExpiresAt(scope: Scope, disbursementDate: string, now = new Date()): Date {
  const validity = new Date(now.getTime() + PROPOSAL_VALIDITY_DAYS * 24 * 3600 * 1000);
  if (scope.environment !== "production") return validity;
  const endOfDisbursementDay = startOfDayInBrazil(addDays(disbursementDate, 1));
  return endOfDisbursementDay < validity ? endOfDisbursementDay : validity;
}
