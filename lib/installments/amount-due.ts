import type { Installment, Prisma } from "@prisma/client";
import { allocatable, amountsDue } from "@/lib/collection/allocation";
import { daysBetween, isLate } from "@/lib/finance";
import { lateRulesOfTerms } from "@/lib/contracts/late-rules";
import { centavos, isoDate } from "@/lib/serialize";
import type { InstallmentStatus } from "./schemas";

// Status and amount due of an installment on a date. The stored status is open, partially_paid, paid or
// canceled; "overdue" is derived: unpaid and late on the given day — after its due date, or after the next business
// day when it fell on a weekend or holiday (lib/finance/late-charges.ts, isLate).
export function statusOn(row: Installment, asOf: string): InstallmentStatus {
  const stored = row.status as InstallmentStatus;
  if (stored === "paid" || stored === "canceled") return stored;
  if (isLate(isoDate(row.dueDate), asOf)) return "overdue";
  return stored;
}

export function amountDueOn(row: Installment, terms: Prisma.JsonValue, asOf: string) {
  const outstanding = centavos(row.amount) - centavos(row.paidAmount);
  const status = row.status as InstallmentStatus;
  if (status === "paid" || status === "canceled" || outstanding <= 0) {
    return { as_of: asOf, days_late: 0, outstanding: 0, fine: 0, late_interest: 0, total: 0 };
  }
  const dueDate = isoDate(row.dueDate);
  // The same reckoning as a charge or a payment that day (lib/collection/allocation.ts): late charges on the open
  // face, less what was already received of them.
  const due = amountsDue(allocatable(row), lateRulesOfTerms(terms), asOf);
  return {
    as_of: asOf,
    days_late: isLate(dueDate, asOf) ? daysBetween(dueDate, asOf) : 0,
    outstanding,
    fine: due.fine,
    late_interest: due.late_interest,
    total: outstanding + due.fine + due.late_interest,
  };
}
