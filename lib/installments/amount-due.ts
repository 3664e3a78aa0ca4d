import type { Installment } from "@prisma/client";
import { lateCharges } from "@/lib/finance";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { centavos, isoDate } from "@/lib/serialize";
import type { InstallmentStatus } from "./schemas";

// Status and amount due of an installment on a date. The stored status is open, partially_paid, paid or
// canceled; "overdue" is derived: unpaid after its due date on the given day.
export function statusOn(row: Installment, asOf: string): InstallmentStatus {
  const stored = row.status as InstallmentStatus;
  if (stored === "paid" || stored === "canceled") return stored;
  if (isoDate(row.dueDate) < asOf) return "overdue";
  return stored;
}

export function amountDueOn(row: Installment, product: string, asOf: string) {
  const outstanding = centavos(row.amount) - centavos(row.paidAmount);
  const status = row.status as InstallmentStatus;
  if (status === "paid" || status === "canceled" || outstanding <= 0) {
    return { as_of: asOf, days_late: 0, outstanding: 0, fine: 0, late_interest: 0, total: 0 };
  }
  const rules = PRODUCTS[product as ProductCode] ?? PRODUCTS.personal_loan;
  const charges = lateCharges({
    amount: outstanding,
    dueDate: isoDate(row.dueDate),
    asOf,
    fineRate: rules.lateFineRate,
    monthlyLateInterestRate: rules.lateMonthlyInterestRate,
  });
  // Late charges already received (a partial payment takes them first) are not owed again — as the allocation
  // reckons them (lib/collection/allocation.ts amountsDue).
  const fine = Math.max(0, charges.fine - centavos(row.finePaid));
  const lateInterest = Math.max(0, charges.late_interest - centavos(row.lateInterestPaid));
  return {
    as_of: asOf,
    days_late: charges.days_late,
    outstanding,
    fine,
    late_interest: lateInterest,
    total: outstanding + fine + lateInterest,
  };
}
