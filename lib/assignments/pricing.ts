import type { Installment } from "@prisma/client";
import { payoffLines, type OpenInstallment } from "@/lib/finance";
import { centavos, isoDate } from "@/lib/serialize";

// Pricing a portfolio's contracts (an offer, ./create-assignment.ts; a buyback, ./buyback.ts).

/** Each contract's open face value and, priced by a discount rate, its open installments' present value on `date`
 *  (rounded per installment, as a payoff quote's lines). One pass: the installments grouped by contract, and one
 *  pricing of every line, so contracts sharing due dates share each exact power. */
export function priceLines(contractIds: readonly string[], open: readonly Installment[], date: string, discountRate: string | undefined) {
  const byContract = new Map<string, OpenInstallment[]>();
  for (const i of open) {
    const rows = byContract.get(i.contractId) ?? [];
    rows.push({ number: i.number, due_date: isoDate(i.dueDate), payment: centavos(i.amount) - centavos(i.paidAmount) });
    byContract.set(i.contractId, rows);
  }
  const all = contractIds.flatMap((id) => byContract.get(id) ?? []);
  const values = discountRate !== undefined ? payoffLines(discountRate, date, all).map((l) => l.present_value) : [];
  let k = 0;
  return contractIds.map((id) => {
    const rows = byContract.get(id) ?? [];
    const face = rows.reduce((s, r) => s + r.payment, 0);
    const value = discountRate !== undefined ? values.slice(k, k + rows.length).reduce((s, v) => s + v, 0) : 0;
    k += rows.length;
    return { contractId: id, face, value };
  });
}
