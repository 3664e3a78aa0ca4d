import type { Installment, Prisma } from "@prisma/client";
import type { Tx } from "@/lib/db/client";
import { toInstallmentResponse } from "@/lib/installments/serialize";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import type { AllocationLine } from "./allocation";

type InstallmentWithTerms = Installment & { contract: { terms: Prisma.JsonValue } };

/** Writes an allocation (./allocation.ts) onto its installments — face amount, late fine and late interest paid,
 *  status — with `installment.paid` for each one it settles. Returns the face amount paid (interest and principal),
 *  which is what leaves the contract's outstanding balance. In the caller's transaction. */
export async function applyAllocation(
  tx: Tx,
  scope: Scope,
  installments: readonly InstallmentWithTerms[],
  lines: readonly AllocationLine[],
  paid: { at: Date; on: string },
): Promise<number> {
  let facePaid = 0;
  for (const line of lines) {
    const row = installments.find((r) => r.id === line.installment_id)!;
    const face = line.interest + line.principal;
    facePaid += face;
    const updated = await tx.installment.update({
      where: { id: row.id },
      data: {
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
