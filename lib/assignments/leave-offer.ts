import type { Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import type { Tx } from "@/lib/db/client";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { cancelAssignmentIn } from "./assignments";
import type { AssignmentResponse, RemovalReason } from "./schemas";
import { toAssignmentResponse } from "./serialize";

// The borrower's settlement wins over a pending offer (CDC art. 52 §2: the right to pay off early, with the discount,
// is not suspended while the lender negotiates the credit). A contract on offer in a pending assignment that gets a
// settlement (full or partial, requested with or without the money) or is paid off by its installments leaves the offer
// in that transaction: its row is no longer live (`removed_at` set, no longer listed), the assignment's `face_value`,
// `price` and `contract_count` drop by that contract's — for an offer priced by a total `price`, the contract's share of
// it: the assignee's total drops by that share, the other contracts keep theirs —, with an audit row
// (`assignment.contract_removed`) and the event `assignment.contract_removed`. The last contract leaving cancels the
// assignment ("every contract left the offer", `assignment.status_changed`). It does not come back: a pending
// settlement canceled later leaves the contract free, to be offered again. A settled assignment's contracts are
// `assigned` (sold): their settlement is the assignee's money, and nothing here applies.
//
// Lock order. Every path here holds the contract's row lock already (lib/contracts/lock-contract.ts: a settlement's
// creation, or the payment paying the contract off — whose transaction took it before knowing it would close the
// contract), and then locks the assignment. Settling an assignment takes the same order: its contracts (in id order)
// first, then the assignment (lib/assignments/assignments.ts `change`), and so does a buyback (./buyback.ts). So no two
// transactions wait for each other in a cycle. Under the contract's lock a pending offer can only be canceled meanwhile (which holds just the assignment),
// never settled nor joined: what is read again once the assignment is locked is final.

/** Why an assignment whose last contract left is canceled. */
export const EMPTIED_REASON = "every contract left the offer";

/** Takes `contractId` (its row locked by the caller) out of the pending assignment it is offered in, if any. Returns the
 *  assignment as it is left (canceled when it was the last contract), or null when the contract was on no pending offer. */
export async function leavePendingOffer(tx: Tx, scope: Scope, actor: Actor, contractId: string, reason: RemovalReason): Promise<AssignmentResponse | null> {
  const [offered] = await tx.$queryRaw<{ assignment_id: string }[]>`
    SELECT ac.assignment_id FROM assignment_contracts ac JOIN assignments a ON a.id = ac.assignment_id
    WHERE ac.contract_id = ${contractId} AND ac.live AND a.status = 'pending'
      AND ac.tenant_id = ${scope.tenantId} AND ac.environment = ${scope.environment}::"Environment"`;
  if (!offered) return null;
  const id = offered.assignment_id;
  await tx.$queryRaw`SELECT id FROM assignments WHERE id = ${id} AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" FOR UPDATE`;
  // Again under the assignment's lock: canceled meanwhile, its contracts are free — nothing to leave.
  const row = await tx.assignment.findFirst({ where: { id, ...where(scope) } });
  const member = await tx.assignmentContract.findFirst({ where: { assignmentId: id, contractId, live: true, ...where(scope) } });
  if (!row || row.status !== "pending" || !member) return null;

  await tx.assignmentContract.update({ where: { assignmentId_contractId: { assignmentId: id, contractId } }, data: { live: false, removedAt: new Date() } });
  const shrunk = await tx.assignment.update({
    where: { id },
    data: { faceValue: { decrement: member.faceValue }, price: { decrement: member.price }, contractCount: { decrement: 1 } },
  });
  const body = toAssignmentResponse(shrunk, await tx.assignmentContract.findMany({ where: { assignmentId: id } }));
  await writeAudit(tx, {
    ...where(scope),
    actor,
    action: "assignment.contract_removed",
    target: { type: "assignment", id },
    metadata: { contract_id: contractId, reason, face_value: Number(member.faceValue), price: Number(member.price) },
  });
  await writeOutboxEvent(tx, { ...where(scope), type: "assignment.contract_removed", payload: { ...body, removed_contract_id: contractId, reason } as unknown as Prisma.InputJsonObject });
  if (shrunk.contractCount > 0) return body;
  return cancelAssignmentIn(tx, scope, actor, id, EMPTIED_REASON);
}
