import type { Contract, Installment, Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { todayInBrazil } from "@/lib/clock";
import { toContractResponse } from "@/lib/contracts/serialize";
import { CONTRACT_EVENTS, CONTRACT_TRANSITIONS, type ContractStatus } from "@/lib/contracts/transitions";
import { db, type Tx } from "@/lib/db/client";
import { requestTransactionOptions } from "@/lib/db/transaction";
import { DomainError, invalidField, notFound } from "@/lib/errors";
import { shareProportionally } from "@/lib/finance";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { nextState } from "@/lib/state-machine";
import type { AssignmentResponse, BuybackAssignmentBody } from "./schemas";
import { priceLines } from "./pricing";
import { toAssignmentResponse } from "./serialize";
import { ASSIGNMENT_TRANSITIONS, type AssignmentStatus } from "./transitions";

// POST /v1/assignments/{id}/buyback (recompra): the originator buys contracts of a settled assignment back from the
// assignee — a defect or fraud found in them, or the coobrigação the assignment carried. Each contract goes from
// `assigned` back to `active` (the status it was sold in: only active contracts are assigned) with its `assignment_id`
// cleared, so every later payment — charges, the repasse, a payoff, the credit job — is the originator's again (they
// read the contract's `assignment_id` when the money arrives). Its row in the assignment stays listed, no longer live
// (the contract may be offered again), with `bought_back_at`, its `buyback_price` and the reason. The assignment stays
// `settled` until every contract of it has been bought back: then `bought_back` (one its borrower paid off or settled
// since the sale was the assignee's to the end, never bought back: such an assignment stays `settled`).
//
// Price: the request's total `price`, shared in proportion to the contracts' open face value (largest remainder, as an
// assignment at a price is shared); else each contract at the present value of its open installments today, at the
// assignment's discount rate when it was priced by one, else at the contract's own monthly rate (lib/finance
// payoffLines, as the assignment was priced).
//
// One transaction. Locks in the order of every other path (./leave-offer.ts, ./assignments.ts settle): the contracts'
// rows first, in id order, then the assignment's. All or nothing: one contract refused refuses the request.

export function buybackContracts(scope: Scope, actor: Actor, id: string, body: BuybackAssignmentBody): Promise<AssignmentResponse> {
  return db().$transaction((tx) => buyback(tx, scope, actor, id, body), requestTransactionOptions());
}

async function buyback(tx: Tx, scope: Scope, actor: Actor, id: string, body: BuybackAssignmentBody): Promise<AssignmentResponse> {
  const ids = [...body.contract_ids].sort();
  await tx.$queryRaw`SELECT id FROM contracts WHERE id = ANY(${ids}) AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" ORDER BY id FOR UPDATE`;
  await tx.$queryRaw`SELECT id FROM assignments WHERE id = ${id} AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" FOR UPDATE`;
  const row = await tx.assignment.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Assignment");
  const from = row.status as AssignmentStatus;
  nextState(ASSIGNMENT_TRANSITIONS, "assignment", from, "buyback"); // only a settled one: 409 invalid_transition otherwise

  const contracts = new Map((await tx.contract.findMany({ where: { id: { in: ids }, ...where(scope) } })).map((c) => [c.id, c]));
  const members = new Map((await tx.assignmentContract.findMany({ where: { assignmentId: id, contractId: { in: ids }, ...where(scope) } })).map((m) => [m.contractId, m]));
  body.contract_ids.forEach((contractId, index) => {
    const contract = contracts.get(contractId);
    if (!contract) throw invalidField(`contract_ids.${index}`, "Not a contract of this environment");
    const member = members.get(contractId);
    if (!member || member.removedAt !== null) {
      throw new DomainError("contract_not_assigned", `Contract ${contractId} is not in assignment ${id}`, { contract_id: contractId, current_status: contract.status, assignment_id: contract.assignmentId });
    }
    if (member.boughtBackAt !== null) {
      throw new DomainError("contract_not_assigned", `Contract ${contractId} was bought back from assignment ${id} already (${member.boughtBackAt.toISOString()})`, { contract_id: contractId, current_status: contract.status, assignment_id: contract.assignmentId });
    }
    if (contract.status !== "assigned" || contract.assignmentId !== id) {
      // Closed since it was sold (the borrower paid it off or settled it: that money was the assignee's), or otherwise
      // no longer the assignee's to sell back.
      throw new DomainError("contract_not_assigned", `Contract ${contractId} is ${contract.status}: only contracts still assigned to assignment ${id} are bought back`, {
        contract_id: contractId,
        current_status: contract.status,
        assignment_id: contract.assignmentId,
      });
    }
  });

  const sorted = ids.map((c) => contracts.get(c)!);
  const open = await tx.installment.findMany({ where: { ...where(scope), contractId: { in: ids }, status: { in: ["open", "partially_paid"] } }, orderBy: [{ dueDate: "asc" }, { number: "asc" }] });
  const prices = buybackPrices(sorted, open, todayInBrazil(), row.pricingMethod === "discount_rate" ? row.discountRate : null, body.price);

  const now = new Date();
  for (const [k, contract] of sorted.entries()) {
    const price = prices[k]!;
    const status = nextState(CONTRACT_TRANSITIONS, "contract", contract.status as ContractStatus, "buy_back");
    const updated = await tx.contract.update({ where: { id: contract.id }, data: { status, assignmentId: null } });
    await tx.assignmentContract.update({
      where: { assignmentId_contractId: { assignmentId: id, contractId: contract.id } },
      data: { live: false, boughtBackAt: now, buybackPrice: BigInt(price), buybackReason: body.reason },
    });
    await writeAudit(tx, {
      ...where(scope),
      actor,
      action: CONTRACT_EVENTS.buy_back,
      target: { type: "contract", id: contract.id },
      metadata: { from: contract.status, to: status, assignment_id: id, price, reason: body.reason },
    });
    await writeOutboxEvent(tx, {
      ...where(scope),
      type: CONTRACT_EVENTS.buy_back,
      payload: { ...toContractResponse(updated), previous_assignment_id: id, buyback_price: price, reason: body.reason } as unknown as Prisma.InputJsonObject,
    });
  }

  // Under the assignment's lock: another buyback of its other contracts committed before this one is seen here.
  const notBoughtBack = await tx.assignmentContract.count({ where: { assignmentId: id, ...where(scope), removedAt: null, boughtBackAt: null } });
  const to = nextState(ASSIGNMENT_TRANSITIONS, "assignment", from, notBoughtBack === 0 ? "buyback_last" : "buyback");
  const updated = await tx.assignment.update({ where: { id }, data: { status: to, updatedAt: now, ...(to !== from ? { boughtBackAt: now } : {}) } });
  const response = toAssignmentResponse(updated, await tx.assignmentContract.findMany({ where: { assignmentId: id } }));
  const amount = prices.reduce((s, p) => s + p, 0);
  await writeAudit(tx, {
    ...where(scope),
    actor,
    action: "assignment.contracts_bought_back",
    target: { type: "assignment", id },
    metadata: { from, to, contract_ids: ids, amount, reason: body.reason, ...(body.price !== undefined ? { price: body.price } : {}) },
  });
  if (to !== from) {
    await writeOutboxEvent(tx, { ...where(scope), type: "assignment.status_changed", payload: { ...response, previous_status: from } as unknown as Prisma.InputJsonObject });
  }
  return response;
}

/** What the originator pays for each contract (in `contracts`' order): a total `price` shared in proportion to their
 *  open face value, else each one's open installments at their present value on `date` — at the assignment's discount
 *  rate, or (an assignment priced by a total) at the contract's own monthly rate: one pricing per rate (./pricing.ts). */
export function buybackPrices(contracts: readonly Contract[], open: readonly Installment[], date: string, discountRate: string | null, price: number | undefined): number[] {
  if (price !== undefined) {
    const faces = priceLines(contracts.map((c) => c.id), open, date, undefined).map((l) => l.face);
    // Nothing open on any of them (cannot be: an assigned contract with nothing open is settled): shared equally.
    return shareProportionally(price, faces.some((f) => f > 0) ? faces : faces.map(() => 1));
  }
  const byRate = new Map<string, string[]>();
  for (const c of contracts) {
    const rate = discountRate ?? c.monthlyRate;
    byRate.set(rate, [...(byRate.get(rate) ?? []), c.id]);
  }
  const values = new Map<string, number>();
  for (const [rate, ids] of byRate) for (const line of priceLines(ids, open, date, rate)) values.set(line.contractId, line.value);
  return contracts.map((c) => values.get(c.id) ?? 0);
}
