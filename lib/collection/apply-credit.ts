import type { Payment, Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { closeIfPaidOff } from "@/lib/contracts/close-paid-off";
import { lockContract } from "@/lib/contracts/lock-contract";
import { COLLECTIBLE, type ContractStatus } from "@/lib/contracts/transitions";
import type { Tx } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { centavos, dateColumn } from "@/lib/serialize";
import { allocatable, allocate } from "./allocation";
import { applyAllocation } from "./apply-allocation";
import { cancelCoveredCharges } from "./cancel-charge";
import { lateRulesOfTerms } from "@/lib/contracts/late-rules";
import { paidAtOf } from "./pay-charge";
import { toPaymentResponse } from "./serialize";

// A contract's credit (money received beyond what was owed: an overpaid charge, a boleto paid twice) pays what falls
// due, so that a borrower who paid ahead is never charged a late fine: installments due on or before `asOf` that
// are still open, oldest first — late fine, late interest, interest, principal, as any payment. Installments not yet
// due are left alone: paying them early at face value would charge interest not yet incurred (a prepayment with its
// discount is a settlement, CDC art. 52 §2). What the credit does not use stays the credit.
//
// One transaction, under the contract's row lock: the installments, the contract's amounts (`amount_paid` up,
// `outstanding_balance` down by the face paid, `credit_balance` down), one payment row of source `contract_credit`
// (no new money: `amount` is the credit used, `allocations` how), the audit row and the events
// (`installment.paid` for each installment it settles, `contract.credit_applied` with the payment); charges left with
// nothing to collect are canceled (not those for an installment it paid in part: below) and a contract paid to its last
// installment closes, as with any payment (./cancel-charge.ts).
// The collection job applies credits every run, before it marks installments overdue (./collection-job.ts).

export const CREDIT_SOURCE = "contract_credit";

export async function applyCreditIn(tx: Tx, scope: Scope, actor: Actor, contractId: string, asOf: string, now = new Date()): Promise<Payment | null> {
  await lockContract(tx, scope, contractId);
  const contract = await tx.contract.findFirst({ where: { id: contractId, ...where(scope) } });
  if (!contract || !COLLECTIBLE.includes(contract.status as ContractStatus) || contract.creditBalance <= 0n) return null;
  // A pending settlement may be holding part of the credit (its charge paid in parts): that money is the
  // settlement's, not the installments'. The credit waits until the settlement completes or is canceled.
  if (await tx.settlement.findFirst({ where: { ...where(scope), contractId, status: "pending" }, select: { id: true } })) return null;
  const due = await tx.installment.findMany({
    where: { ...where(scope), contractId, status: { in: ["open", "partially_paid"] }, dueDate: { lte: dateColumn(asOf) } },
    include: { contract: { select: { terms: true } } },
    orderBy: { number: "asc" },
  });
  if (due.length === 0) return null;
  const credit = centavos(contract.creditBalance);
  const rules = lateRulesOfTerms(contract.terms);
  const { lines, credit: left } = allocate(credit, due.map(allocatable), rules, asOf);
  const used = credit - left;
  if (used === 0) return null;

  const paidAt = paidAtOf(asOf, now);
  const facePaid = await applyAllocation(tx, scope, due, lines, { at: paidAt, on: asOf, rules });
  await tx.contract.update({
    where: { id: contract.id },
    data: { amountPaid: { increment: BigInt(used) }, outstandingBalance: { decrement: BigInt(facePaid) }, creditBalance: { decrement: BigInt(used) } },
  });
  const payment = await tx.payment.create({
    data: {
      id: newId("payment"),
      ...where(scope),
      contractId: contract.id,
      chargeId: null,
      assignmentId: contract.assignmentId,
      amount: BigInt(used),
      source: CREDIT_SOURCE,
      allocations: lines as unknown as Prisma.InputJsonArray,
      credit: 0n,
      paidAt,
    },
  });
  const body = toPaymentResponse(payment);
  await writeAudit(tx, {
    ...where(scope),
    actor,
    action: "contract.credit_applied",
    target: { type: "contract", id: contract.id },
    metadata: { payment_id: payment.id, amount: used, credit_before: credit, credit_after: left },
  });
  await writeOutboxEvent(tx, { ...where(scope), type: "contract.credit_applied", payload: body as unknown as Prisma.InputJsonObject });
  // Only the charges left with nothing to collect are canceled — not one for an installment the credit paid only in part:
  // the job applies credit on its own, on the due date too, and canceling the charge the borrower is about to pay (a
  // few centavos of credit on a boleto due today) would turn that on-time payment into mere credit, applied the next
  // day with a fine. Paid as it is, that charge brings a few centavos too many, which become credit again.
  if (lines.some((l) => l.settles)) {
    await cancelCoveredCharges(tx, scope, actor, contract.id, `its installments were paid with the contract's credit (payment ${payment.id})`);
    await closeIfPaidOff(tx, scope, actor, contract.id);
  }
  return payment;
}
