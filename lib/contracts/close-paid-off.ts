import type { Contract, Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { leavePendingOffer } from "@/lib/assignments/leave-offer";
import type { Tx } from "@/lib/db/client";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { requestTermination } from "@/lib/payroll/endorsement-termination";
import { cancelPendingSettlementsOf } from "@/lib/settlements/settlements";
import { nextState } from "@/lib/state-machine";
import { lockContract } from "./lock-contract";
import { toContractResponse } from "./serialize";
import { CONTRACT_EVENTS, CONTRACT_TRANSITIONS, type ContractStatus } from "./transitions";

// A contract whose obligations are met closes: once no installment is open or partially paid, an active (or
// assigned) contract becomes `settled` with event `contract.closed`, reason `paid_off` — in the transaction of the
// payment that paid the last installment (a charge's payment, a payroll repasse, the contract's credit applied).
// A settlement closes its contract itself (reason `settled`); a settlement still pending when the installments
// pay the contract off is canceled with it (its charge too: paid later, that money becomes the credit). Money above what was owed stays the contract's
// credit (`credit_balance`), owed back to the borrower.
//
// The contract row is locked first: two payments of the last two installments, each in its own transaction,
// then serialize here, and the second one sees the first one's installment paid and closes the contract.
//
// A contract paid off while on offer in a pending portfolio assignment leaves the offer here (lib/assignments/
// leave-offer.ts): there is nothing left to sell, and the rest of the offer can still be settled. The assignment's row
// is locked after the contract's — the payment's transaction took the contract's before knowing it would close it —,
// the order every path takes them in, settling an assignment included (its contracts first, then the assignment).

export async function closeIfPaidOff(tx: Tx, scope: Scope, actor: Actor, contractId: string): Promise<Contract | null> {
  await lockContract(tx, scope, contractId);
  const contract = await tx.contract.findFirst({ where: { id: contractId, ...where(scope) } });
  if (!contract || !("pay_off" in CONTRACT_TRANSITIONS[contract.status as ContractStatus])) return null;
  const open = await tx.installment.count({ where: { ...where(scope), contractId, status: { in: ["open", "partially_paid"] } } });
  if (open > 0) return null;
  const from = contract.status as ContractStatus;
  const to = nextState(CONTRACT_TRANSITIONS, "contract", from, "pay_off");
  const closed = await tx.contract.update({ where: { id: contract.id }, data: { status: to } });
  await writeAudit(tx, { ...where(scope), actor, action: CONTRACT_EVENTS.pay_off, target: { type: "contract", id: contract.id }, metadata: { from, to, reason: "paid_off" } });
  await writeOutboxEvent(tx, {
    ...where(scope),
    type: CONTRACT_EVENTS.pay_off,
    payload: { ...toContractResponse(closed), reason: "paid_off", settlement_id: null } as unknown as Prisma.InputJsonObject,
  });
  await cancelPendingSettlementsOf(tx, scope, actor, contract.id, "the contract was paid off by its installments");
  if (from === "active") await leavePendingOffer(tx, scope, actor, contract.id, "paid_off"); // an assigned one is sold: nothing to leave
  await requestTermination(tx, scope, actor, contract, "settled"); // a payroll contract's averbação ends

  return closed;
}
