import type { Installment, Prisma } from "@prisma/client";
import type { Tx } from "@/lib/db/client";
import { toInstallmentResponse } from "@/lib/installments/serialize";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { isLate } from "@/lib/finance";
import { dateColumn } from "@/lib/serialize";
import { allocatable, lateInterestAccrued, type AllocationLine, type LateRules } from "./allocation";

type InstallmentWithTerms = Installment & { contract: { terms: Prisma.JsonValue } };

/** Writes an allocation (./allocation.ts) onto its installments — face amount, late fine and late interest paid,
 *  status, and for one paid while late the late interest accrued through that day — with `installment.paid` for each
 *  one it settles. Returns the face amount paid (interest and principal), which is what leaves the contract's
 *  outstanding balance. In the caller's transaction. */
export async function applyAllocation(
  tx: Tx,
  scope: Scope,
  installments: readonly InstallmentWithTerms[],
  lines: readonly AllocationLine[],
  paid: { at: Date; on: string; rules: LateRules },
): Promise<number> {
  let facePaid = 0;
  for (const line of lines) {
    const row = installments.find((r) => r.id === line.installment_id)!;
    const face = line.interest + line.principal;
    facePaid += face;
    const before = allocatable(row);
    // Paid while late: the delay so far counted on the face open until now; from today on, on what is left. Only
    // forward: a payment dated before the last checkpoint (a provider's late notice of an earlier payment, the credit
    // job) leaves it — moving it back would count the days between the two again.
    const checkpoint = paid.on > (before.lateInterestAccruedOn ?? before.dueDate) && isLate(before.dueDate, paid.on) ? { lateInterestAccrued: BigInt(lateInterestAccrued(before, paid.rules, paid.on)), lateInterestAccruedOn: dateColumn(paid.on) } : {};
    const updated = await tx.installment.update({
      where: { id: row.id },
      data: {
        ...checkpoint,
        paidAmount: { increment: BigInt(face) },
        finePaid: { increment: BigInt(line.fine) },
        lateInterestPaid: { increment: BigInt(line.late_interest) },
        status: line.settles ? "paid" : "partially_paid",
        paidAt: line.settles ? paid.at : null,
      },
      include: { contract: { select: { terms: true } } },
    });
    if (line.settles) await writeOutboxEvent(tx, { ...where(scope), type: "installment.paid", payload: toInstallmentResponse(updated, paid.on) as unknown as Prisma.InputJsonObject });
  }
  return facePaid;
}
