import type { AssignmentContract, Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { toContractResponse } from "@/lib/contracts/serialize";
import { CONTRACT_EVENTS, CONTRACT_TRANSITIONS, type ContractStatus } from "@/lib/contracts/transitions";
import { db, type Tx } from "@/lib/db/client";
import { keysetWhere, paginate, type Page } from "@/lib/db/paginate";
import { requestTransactionOptions } from "@/lib/db/transaction";
import { cancelEachLapsed } from "@/lib/jobs/cancel-lapsed";
import { todayInBrazil } from "@/lib/clock";
import { DomainError, notFound, TransientConflict } from "@/lib/errors";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { dateColumn, isoDate } from "@/lib/serialize";
import { clearingDeadline } from "@/lib/settlements/settlements";
import { where, type Scope } from "@/lib/scope";
import { nextState } from "@/lib/state-machine";
import { assertFree, checkNoCredit } from "./create-assignment";
import { MAX_ASSIGNMENT_CONTRACTS, type AssignmentResponse, type ListAssignmentContractsQuery, type ListAssignmentsQuery } from "./schemas";
import { toAssignmentContractResponse, toAssignmentResponse } from "./serialize";
import { ASSIGNMENT_TRANSITIONS, type AssignmentAction, type AssignmentStatus } from "./transitions";

// Reading assignments; settling one (its contracts become `assigned` to the assignee: later receipts are the
// assignee's), canceling it or recording that the assignee declined it (its contracts are free again). Each a
// transaction with audit and `assignment.status_changed` (and `contract.assigned` per contract on settle). A contract
// whose borrower settles or pays it off while it is on offer leaves the offer (./leave-offer.ts): the assignment is
// settled with the rest. Buying contracts of a settled one back: ./buyback.ts.

export async function getAssignment(scope: Scope, id: string): Promise<AssignmentResponse> {
  const row = await db().assignment.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Assignment");
  return toAssignmentResponse(row, await db().assignmentContract.findMany({ where: { assignmentId: id } }));
}

/** One assignment's contracts, a page at a time: the ones `getAssignment` embeds (those still in the offer, or sold, or
 *  canceled with it — not those that left it while pending), in the same order, by contract id ascending. The
 *  primary key (assignment_id, contract_id) serves it: `contract_id > last` seeks. The cursor is a contract's
 *  position bound to this assignment (its creation time as the cursor's date): another list's cursor — a
 *  `/v1/contracts` one, another assignment's — is 400 `invalid_cursor`, not a position in the wrong order. */
export async function listAssignmentContracts(scope: Scope, id: string, query: ListAssignmentContractsQuery) {
  const assignment = await db().assignment.findFirst({ where: { id, ...where(scope) }, select: { id: true, createdAt: true } });
  if (!assignment) throw notFound("Assignment");
  const after = decodeCursor(scope, query.cursor, "contract");
  if (after && after.at.getTime() !== assignment.createdAt.getTime()) {
    const message = "The cursor is invalid for this list";
    throw new DomainError("invalid_cursor", message, { errors: [{ param: "cursor", in: "query", message }] });
  }
  const rows = await db().assignmentContract.findMany({
    where: { assignmentId: id, ...where(scope), removedAt: null, ...(after ? { contractId: { gt: after.id } } : {}) },
    orderBy: { contractId: "asc" },
    take: query.limit + 1,
  });
  const items = rows.slice(0, query.limit).map((row) => ({ id: row.contractId, createdAt: assignment.createdAt, row }));
  return toListResponse(scope, { items, hasMore: rows.length > query.limit }, (item) => toAssignmentContractResponse(item.row));
}

/** The contracts one page of the list may embed in all: an assignment holds up to 1,000, so 100 of them would be
 *  100,000 rows in one answer. A page ends early (fewer than `limit` assignments, `has_more` true, the cursor after
 *  the last one shown) once the next assignment would take it past this; it always holds at least one. */
export const LIST_PAGE_CONTRACTS = MAX_ASSIGNMENT_CONTRACTS;

export async function listAssignments(scope: Scope, query: ListAssignmentsQuery) {
  const after = decodeCursor(scope, query.cursor, "assignment");
  const filters: Prisma.AssignmentWhereInput = { ...where(scope), ...(query.status ? { status: query.status } : {}) };
  const page = withinContractBudget(await paginate(query.limit, (args) => db().assignment.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args })));
  const rows = await db().assignmentContract.findMany({ where: { assignmentId: { in: page.items.map((r) => r.id) }, removedAt: null } });
  const byAssignment = new Map<string, AssignmentContract[]>();
  for (const row of rows) {
    const list = byAssignment.get(row.assignmentId);
    if (list) list.push(row);
    else byAssignment.set(row.assignmentId, [row]);
  }
  return toListResponse(scope, page, (row) => toAssignmentResponse(row, byAssignment.get(row.id) ?? []));
}

function withinContractBudget<Row extends { contractCount: number }>(page: Page<Row>): Page<Row> {
  let total = 0;
  for (const [i, row] of page.items.entries()) {
    total += row.contractCount;
    if (total > LIST_PAGE_CONTRACTS && i > 0) return { items: page.items.slice(0, i), hasMore: true };
  }
  return page;
}

export function settleAssignment(scope: Scope, actor: Actor, id: string): Promise<AssignmentResponse> {
  return db().$transaction((tx) => change(tx, scope, actor, id, "settle"), requestTransactionOptions());
}

export function cancelAssignment(scope: Scope, actor: Actor, id: string, reason: string | undefined): Promise<AssignmentResponse> {
  return db().$transaction((tx) => change(tx, scope, actor, id, "cancel", reason ?? "canceled by the integrator"), requestTransactionOptions());
}

/** The assignee declined the pending offer: pending → declined, its contracts free again as a cancel frees them. */
export function declineAssignment(scope: Scope, actor: Actor, id: string, reason: string): Promise<AssignmentResponse> {
  return db().$transaction((tx) => change(tx, scope, actor, id, "decline", reason), requestTransactionOptions());
}

/** Cancels a pending assignment inside the caller's transaction (its last contract left the offer: ./leave-offer.ts). */
export function cancelAssignmentIn(tx: Tx, scope: Scope, actor: Actor, id: string, reason: string): Promise<AssignmentResponse> {
  return change(tx, scope, actor, id, "cancel", reason);
}

type PendingAction = Extract<AssignmentAction, "settle" | "cancel" | "decline">;
const DONE: Record<PendingAction, string> = { settle: "assignment.settled", cancel: "assignment.canceled", decline: "assignment.declined" };

async function change(tx: Tx, scope: Scope, actor: Actor, id: string, action: PendingAction, reason?: string): Promise<AssignmentResponse> {
  // Settling locks its contracts (in id order) before the assignment, the order of every path that takes a contract
  // out of a pending offer while holding the contract's lock (a settlement's creation, the payment paying it off:
  // ./leave-offer.ts) — the other order would deadlock with them. The members are read before any lock: under the
  // assignment's lock they are read again, and a pending offer only ever loses contracts, so the contracts locked cover
  // every one still in it.
  let locked = new Set<string>();
  if (action === "settle") {
    const offered = await tx.assignmentContract.findMany({ where: { assignmentId: id, live: true, ...where(scope) }, select: { contractId: true } });
    const ids = offered.map((m) => m.contractId).sort();
    const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM contracts WHERE id = ANY(${ids}) AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" ORDER BY id FOR UPDATE`;
    locked = new Set(rows.map((r) => r.id));
  }
  await tx.$queryRaw`SELECT id FROM assignments WHERE id = ${id} AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" FOR UPDATE`;
  const row = await tx.assignment.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Assignment");
  const from = row.status as AssignmentStatus;
  const to = nextState(ASSIGNMENT_TRANSITIONS, "assignment", from, action);
  if (action === "settle") checkNotLapsed(row.settlementDate);
  const now = new Date();
  if (action === "settle") {
    // The contracts still in the offer: those that left it (settled or paid off by their borrowers) are not sold, and
    // the totals are already the rest's.
    const members = await tx.assignmentContract.findMany({ where: { assignmentId: id, live: true } });
    const contractIds = members.map((m) => m.contractId).sort();
    const unlocked = contractIds.find((c) => !locked.has(c));
    if (unlocked) throw new TransientConflict(`Assignment ${id} changed while it was being settled: retry`, { contract_id: unlocked }); // cannot happen: an offer never gains contracts
    await assertFree(tx, scope, contractIds, id);
    const contracts = await tx.contract.findMany({ where: { id: { in: contractIds }, ...where(scope) } });
    const faces = await openFaces(tx, scope, contractIds);
    for (const contract of contracts) {
      if (contract.status !== "active") {
        throw new DomainError("contract_not_active", `Contract ${contract.id} is ${contract.status} now; cancel this assignment`, { contract_id: contract.id, current_status: contract.status });
      }
      const status = nextState(CONTRACT_TRANSITIONS, "contract", contract.status as ContractStatus, "assign");
      checkPricedFace(members.find((m) => m.contractId === contract.id)!, faces.get(contract.id) ?? 0n);
      checkNoCredit(contract);
      const updated = await tx.contract.update({ where: { id: contract.id }, data: { status, assignmentId: id } });
      await writeAudit(tx, { ...where(scope), actor, action: CONTRACT_EVENTS.assign, target: { type: "contract", id: contract.id }, metadata: { from: contract.status, to: status, assignment_id: id } });
      await writeOutboxEvent(tx, { ...where(scope), type: CONTRACT_EVENTS.assign, payload: toContractResponse(updated) as unknown as Prisma.InputJsonObject });
    }
  } else {
    // Canceled or declined: its contracts are free again.
    await tx.assignmentContract.updateMany({ where: { assignmentId: id, live: true }, data: { live: false } });
  }
  const stamp = action === "settle" ? { settledAt: now } : action === "cancel" ? { canceledAt: now, cancelReason: reason } : { declinedAt: now, declineReason: reason };
  const updated = await tx.assignment.update({ where: { id }, data: { status: to, ...stamp } });
  const body = toAssignmentResponse(updated, await tx.assignmentContract.findMany({ where: { assignmentId: id } }));
  await writeAudit(tx, { ...where(scope), actor, action: DONE[action], target: { type: "assignment", id }, metadata: { from, to, ...(reason ? { reason } : {}) } });
  await writeOutboxEvent(tx, { ...where(scope), type: "assignment.status_changed", payload: { ...body, previous_status: from } as unknown as Prisma.InputJsonObject });
  return body;
}

/** Each contract's open face value now: what its open installments still owe. */
async function openFaces(tx: Tx, scope: Scope, contractIds: string[]): Promise<Map<string, bigint>> {
  const open = await tx.installment.findMany({
    where: { ...where(scope), contractId: { in: contractIds }, status: { in: ["open", "partially_paid"] } },
    select: { contractId: true, amount: true, paidAmount: true },
  });
  const faces = new Map<string, bigint>();
  for (const i of open) faces.set(i.contractId, (faces.get(i.contractId) ?? 0n) + (i.amount - i.paidAmount));
  return faces;
}

/** A contract is sold for what was open when the assignment was priced: paid since (to the seller), it would be sold
 *  for money the assignee will never receive. 409, so it is priced again. */
function checkPricedFace(member: { contractId: string; faceValue: bigint }, face: bigint): void {
  if (face !== member.faceValue) {
    throw new DomainError("conflict", `Contract ${member.contractId} received payments since this assignment was priced (open face ${face} centavos, priced on ${member.faceValue}): cancel it and make a new one`, {
      contract_id: member.contractId,
      face_value: Number(face),
      priced_face_value: Number(member.faceValue),
    });
  }
}

/** Its prices are present values on its settlement date: settled later (past the days a payment made on the date takes
 *  to clear and be notified), they would be stale — installments since due bought at a discount. 409: make a new one. */
function checkNotLapsed(settlementDate: Date): void {
  const date = isoDate(settlementDate);
  if (clearingDeadline(date) < todayInBrazil()) {
    throw new DomainError("invalid_transition", `Its settlement date (${date}) has passed: cancel it and make a new one`, { current_status: "pending", action: "settle" });
  }
}

/** The collection job: pending assignments past their settlement date (and its clearing days) → canceled, their
 *  contracts free again (an offer must not block the borrower's early payoff indefinitely). */
export async function cancelLapsedAssignments(today: string): Promise<{ canceled: number }> {
  const lapsedAfter = (after: string) =>
    db().assignment.findMany({
      where: { status: "pending", settlementDate: { lt: dateColumn(today) }, id: { gt: after } },
      select: { id: true, tenantId: true, environment: true, settlementDate: true },
      orderBy: { id: "asc" },
      take: 1000,
    });
  return cancelEachLapsed(
    "assignment",
    lapsedAfter,
    (a) => clearingDeadline(isoDate(a.settlementDate)) >= today, // the assignee's payment may still be on its way
    (a) => db().$transaction((tx) => change(tx, { tenantId: a.tenantId, environment: a.environment }, JOB, a.id, "cancel", "lapsed: not settled by its date"), requestTransactionOptions()),
  );
}

const JOB: Actor = { type: "system", label: "collection job" };
