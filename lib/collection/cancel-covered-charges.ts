import type { Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import type { Tx } from "@/lib/db/client";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { nextState } from "@/lib/state-machine";
import { toChargeResponse } from "./serialize";
import { CHARGE_EVENTS, CHARGE_TRANSITIONS, type ChargeStatus } from "./transitions";

// Once installments are paid by other means — another charge for the same installment (a boleto and a Pix issued
// for it, one of them paid), the payroll repasse — the charges still open for them would ask the borrower to pay
// again. In the transaction of that payment, every open charge of the contract (not a settlement's) whose
// installments are now all paid or canceled is canceled (`charge.canceled`, audited with the reason); a charge that
// still covers an open installment stays. Money that arrives for a canceled charge anyway is the contract's credit
// (lib/collection/pay-charge.ts), never refused.

const OPEN: ChargeStatus[] = ["pending", "partially_paid", "overdue"];

export async function cancelCoveredCharges(tx: Tx, scope: Scope, actor: Actor, contractId: string, reason: string): Promise<string[]> {
  const charges = await tx.charge.findMany({ where: { ...where(scope), contractId, settlementId: null, status: { in: OPEN } } });
  if (charges.length === 0) return [];
  const ids = [...new Set(charges.flatMap((c) => c.installmentIds))];
  const stillOpen = new Set(
    (await tx.installment.findMany({ where: { ...where(scope), id: { in: ids }, status: { in: ["open", "partially_paid"] } }, select: { id: true } })).map((i) => i.id),
  );
  const canceled: string[] = [];
  for (const charge of charges) {
    if (charge.installmentIds.some((id) => stillOpen.has(id))) continue;
    const from = charge.status as ChargeStatus;
    const to = nextState(CHARGE_TRANSITIONS, "charge", from, "cancel");
    const changed = await tx.charge.updateMany({ where: { id: charge.id, status: from }, data: { status: to } });
    if (changed.count !== 1) continue;
    const body = toChargeResponse(await tx.charge.findUniqueOrThrow({ where: { id: charge.id } }));
    await writeAudit(tx, { ...where(scope), actor, action: CHARGE_EVENTS.cancel, target: { type: "charge", id: charge.id }, metadata: { from, to, reason } });
    await writeOutboxEvent(tx, { ...where(scope), type: CHARGE_EVENTS.cancel, payload: body as unknown as Prisma.InputJsonObject });
    canceled.push(charge.id);
  }
  return canceled;
}
