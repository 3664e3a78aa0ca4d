import type { Contract, Installment } from "@prisma/client";
import { invalidField } from "@/lib/errors";
import { addMonths, prepaymentSchedule, type AmortizationSystem } from "@/lib/finance";
import { centavos, isoDate } from "@/lib/serialize";
import type { SettlementResponse } from "./schemas";

export type PrepaymentPlan = NonNullable<SettlementResponse["reschedule"]>;

/**
 * A partial settlement's new schedule: `amount` prepaid on `date` against the open installments (none due by then),
 * reducing the installments or the term. Priced when the settlement is made, for its date, and again when its money
 * arrives earlier than that (./complete-settlement.ts).
 */
export function prepaymentPlan(contract: Contract, open: Installment[], date: string, amount: number, reduce: "installment_amount" | "term"): PrepaymentPlan {
  const result = prepaymentSchedule({
    system: (contract.terms as { amortization: AmortizationSystem }).amortization,
    monthlyRate: contract.monthlyRate,
    date,
    remaining: open.map((i) => ({ number: i.number, due_date: isoDate(i.dueDate), nominal_due_date: isoDate(i.nominalDueDate), payment: centavos(i.amount), amortization: centavos(i.principal) })),
    amount,
    reduce,
  });
  // Too little left to spread: a R$ 0,00 installment could never be paid (allocation skips it), so the contract
  // would never close.
  const empty = result.schedule.find((row) => row.payment <= 0);
  if (empty) {
    throw invalidField("amount", `Leaves ${result.balance_after} centavos, too little for ${result.schedule.length} installments (installment ${empty.number} would be 0): prepay less, reduce the term, or settle in full`);
  }
  const idOf = new Map(open.map((i) => [i.number, i.id]));
  return {
    balance_before: result.balance_before,
    balance_after: result.balance_after,
    schedule: result.schedule.map((row) => ({ installment_id: idOf.get(row.number)!, ...row })),
    dropped_installment_ids: result.dropped.map((n) => idOf.get(n)!),
  };
}

/** A plan as stored: one made before rows carried `nominal_due_date` computed its amounts on monthly periods from its
 *  first row's (actual) due date — the row at position k, k months after it — which is what they are given here (the
 *  migration that added the column backfilled completed ones by the same rule). */
export function withNominalDates(plan: PrepaymentPlan): PrepaymentPlan {
  if (plan.schedule.every((row) => typeof row.nominal_due_date === "string")) return plan;
  const first = plan.schedule[0]?.due_date;
  return { ...plan, schedule: plan.schedule.map((row, k) => ({ ...row, nominal_due_date: row.nominal_due_date ?? addMonths(first!, k) })) };
}
