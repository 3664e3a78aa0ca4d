import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { DomainError, notFound } from "@/lib/errors";
import { latestLateDueDate } from "@/lib/finance";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { dateColumn } from "@/lib/serialize";
import { nextState } from "@/lib/state-machine";
import { lockContract } from "./lock-contract";
import type { ContractResponse } from "./schemas";
import { toContractResponse } from "./serialize";
import { CONTRACT_EVENTS, CONTRACT_TRANSITIONS, type ContractStatus } from "./transitions";

// POST /v1/contracts/{id}/write-off — the lender writes a defaulted contract off (baixa para prejuízo: no reasonable
// expectation of recovering it, Res. CMN 4.966/2021 — the lender's decision, recorded with its reason). The debt stays
// the borrower's: the installments, balance and late charges are unchanged, and a written-off contract is still
// collected — charges, payments, the contract's credit, payoff quotes and settlements (a recovery) — and closes as
// `settled` when paid off. Only an active contract that is late (an installment unpaid past its due date): a
// performing one is not written off, an assigned one is the assignee's to write off, a pending settlement or
// assignment offer would be left pointing at it.
export async function writeOffContract(scope: Scope, actor: Actor, id: string, reason: string, today: string): Promise<ContractResponse> {
  return db().$transaction(async (tx) => {
    if (!(await lockContract(tx, scope, id))) throw notFound("Contract");
    const contract = (await tx.contract.findFirst({ where: { id, ...where(scope) } }))!;
    const from = contract.status as ContractStatus;
    if (from === "assigned") {
      throw new DomainError("invalid_transition", "An assigned contract belongs to its assignee: it is not written off here", { current_status: from, action: "write_off" });
    }
    const to = nextState(CONTRACT_TRANSITIONS, "contract", from, "write_off");
    const late = await tx.installment.count({
      where: { contractId: id, ...where(scope), status: { in: ["open", "partially_paid"] }, dueDate: { lte: dateColumn(latestLateDueDate(today)) } },
    });
    if (late === 0) {
      throw new DomainError("invalid_transition", "Only a contract in default is written off: none of its installments is late", { current_status: from, action: "write_off" });
    }
    const pending = await tx.settlement.findFirst({ where: { ...where(scope), contractId: id, status: "pending" }, select: { id: true } });
    if (pending) throw new DomainError("conflict", `The contract has a pending settlement (${pending.id}): cancel it first`, { settlement_id: pending.id });
    const offered = await tx.assignmentContract.findFirst({ where: { ...where(scope), contractId: id, live: true }, select: { assignmentId: true } });
    if (offered) {
      throw new DomainError("conflict", `The contract is in a pending portfolio assignment (${offered.assignmentId}): cancel the assignment first`, { assignment_id: offered.assignmentId });
    }
    await tx.contract.update({ where: { id }, data: { status: to } });
    await writeAudit(tx, { ...where(scope), actor, action: CONTRACT_EVENTS.write_off, target: { type: "contract", id }, metadata: { from, to, reason, late_installments: late } });
    const body = toContractResponse((await tx.contract.findFirst({ where: { id, ...where(scope) } }))!);
    await writeOutboxEvent(tx, { ...where(scope), type: CONTRACT_EVENTS.write_off, payload: { ...body, reason } });
    return body;
  });
}
