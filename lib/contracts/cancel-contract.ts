import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { cancelOpenChargesOf } from "@/lib/collection/cancel-charge";
import { db } from "@/lib/db/client";
import { DomainError, notFound } from "@/lib/errors";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { isoDate } from "@/lib/serialize";
import { requestTermination } from "@/lib/payroll/endorsement-termination";
import { cancelPendingSettlementsOf } from "@/lib/settlements/settlements";
import { nextState } from "@/lib/state-machine";
import { lockContract } from "./lock-contract";
import type { ContractResponse } from "./schemas";
import { toContractResponse } from "./serialize";
import { CONTRACT_EVENTS, CONTRACT_TRANSITIONS, type ContractStatus } from "./transitions";
import { withdrawalEndsOn } from "./withdrawal";

// POST /v1/contracts/{id}/cancel — the borrower's withdrawal within 7 days of disbursement, before any
// payment. Its open installments are canceled with it.
export async function cancelContract(scope: Scope, actor: Actor, id: string, reason: string, today: string): Promise<ContractResponse> {
  return db().$transaction(async (tx) => {
    if (!(await lockContract(tx, scope, id))) throw notFound("Contract");
    const contract = (await tx.contract.findFirst({ where: { id, ...where(scope) } }))!;
    const from = contract.status as ContractStatus;
    const to = nextState(CONTRACT_TRANSITIONS, "contract", from, "cancel");
    const ends = withdrawalEndsOn(isoDate(contract.disbursementDate));
    if (today > ends) {
      throw new DomainError("invalid_transition", `The withdrawal period ended on ${ends}`, {
        current_status: from,
        action: "cancel",
      });
    }
    // Any money received on it — allocated to an installment or not (held toward a pending settlement, or credit from
    // a charge that could no longer be paid) — ends the withdrawal: it would leave that money on a canceled contract.
    const paid = await tx.installment.count({ where: { contractId: id, ...where(scope), paidAmount: { gt: 0 } } });
    if (paid > 0 || contract.creditBalance > 0n || (await tx.payment.count({ where: { contractId: id, ...where(scope) } })) > 0) {
      throw new DomainError("invalid_transition", "A contract with payments cannot be canceled", { current_status: from, action: "cancel" });
    }
    // On offer to an assignee: the assignment would be settled over a contract that no longer exists. A contract is
    // offered only once its withdrawal period has ended (lib/assignments/create-assignment.ts); this is the backstop for
    // offers made before that rule.
    const offered = await tx.assignmentContract.findFirst({ where: { ...where(scope), contractId: id, live: true }, select: { assignmentId: true } });
    if (offered) {
      throw new DomainError("conflict", `The contract is in a pending portfolio assignment (${offered.assignmentId}): cancel the assignment first`, { assignment_id: offered.assignmentId });
    }
    const changed = await tx.contract.updateMany({ where: { id, ...where(scope), status: from }, data: { status: to, outstandingBalance: 0n } });
    if (changed.count !== 1) throw new DomainError("invalid_transition", "The contract changed meanwhile", { current_status: from, action: "cancel" });
    await tx.installment.updateMany({ where: { contractId: id, ...where(scope) }, data: { status: "canceled" } });
    // Nothing is collected from a withdrawn contract: its pending settlement and open charges go with it.
    await cancelPendingSettlementsOf(tx, scope, actor, id, "the contract was canceled (withdrawal)");
    await cancelOpenChargesOf(tx, scope, actor, id, "the contract was canceled (withdrawal)");
    await requestTermination(tx, scope, actor, contract, "canceled"); // a payroll contract's averbação ends
    await writeAudit(tx, { ...where(scope), actor, action: CONTRACT_EVENTS.cancel, target: { type: "contract", id }, metadata: { from, to, reason } });
    const body = toContractResponse((await tx.contract.findFirst({ where: { id, ...where(scope) } }))!);
    await writeOutboxEvent(tx, { ...where(scope), type: CONTRACT_EVENTS.cancel, payload: { ...body, reason } });
    return body;
  });
}
