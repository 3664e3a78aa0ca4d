import { COLLECTIBLE, type ContractStatus } from "@/lib/contracts/transitions";
import { addDays, addMonths, isLate, previousBusinessDay } from "@/lib/finance";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import type { RiskInputs } from "./score";
import { OVERDUE_GRACE_BUSINESS_DAYS, RECENT_DEFAULT_DAYS_LATE, RECENT_DEFAULT_WINDOW_MONTHS } from "./scorecard";

// The customer's payment record for the scorecard, from their installments with us: pure (lib/risk/history.test.ts),
// read by lib/risk/assess.ts.

export type InstallmentRow = { contract_id: string; contract_status: string; product: string; amount: bigint; status: string; due_date: string; paid_on: string | null };

/**
 * The customer's record with us on `asOf`. What they still owe counts whoever holds the contract now (assigned ones
 * are owed to the assignee, written-off ones are still theirs). An installment is overdue for the scorecard once it
 * was already late OVERDUE_GRACE_BUSINESS_DAYS ago (a payment made on its last day is still clearing). Payroll-deducted
 * contracts are paid by the paying source's monthly transfer, whose delay is not the borrower's: an installment of
 * theirs unpaid for up to RECENT_DEFAULT_DAYS_LATE days is counted apart (a review), and one the transfer paid late
 * is no default; unpaid for longer, the deduction has stopped and it counts like any other.
 */
export function historyOf(rows: InstallmentRow[], asOf: string): { openDebt: number; counts: RiskInputs["history"] } {
  let graceAsOf = asOf;
  for (let i = 0; i < OVERDUE_GRACE_BUSINESS_DAYS; i++) graceAsOf = previousBusinessDay(graceAsOf);
  const windowStart = addMonths(asOf, -RECENT_DEFAULT_WINDOW_MONTHS);
  const largestOpen = new Map<string, number>();
  const counts = { paid_installments: 0, paid_on_time: 0, overdue_now: 0, payroll_unpaid_now: 0, late_over_30_days_last_12_months: 0 };
  for (const row of rows) {
    const unpaid = row.status === "open" || row.status === "partially_paid";
    const collected = COLLECTIBLE.includes(row.contract_status as ContractStatus);
    const payroll = PRODUCTS[row.product as ProductCode]?.payrollLink != null;
    if (unpaid && collected) largestOpen.set(row.contract_id, Math.max(largestOpen.get(row.contract_id) ?? 0, Number(row.amount)));
    if (row.status === "paid") {
      counts.paid_installments += 1;
      if (row.paid_on !== null && !isLate(row.due_date, row.paid_on)) counts.paid_on_time += 1;
    }
    const unpaidLong = unpaid && row.due_date < addDays(asOf, -RECENT_DEFAULT_DAYS_LATE);
    if (unpaid && collected && isLate(row.due_date, graceAsOf)) counts[payroll && !unpaidLong ? "payroll_unpaid_now" : "overdue_now"] += 1;
    if (row.due_date >= windowStart) {
      const paidLate = !payroll && row.status === "paid" && row.paid_on !== null && row.paid_on > addDays(row.due_date, RECENT_DEFAULT_DAYS_LATE);
      if (unpaidLong || paidLate) counts.late_over_30_days_last_12_months += 1;
    }
  }
  return { openDebt: [...largestOpen.values()].reduce((a, b) => a + b, 0), counts };
}
