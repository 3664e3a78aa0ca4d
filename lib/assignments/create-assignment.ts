import type { Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { todayInBrazil } from "@/lib/clock";
import { parseCnpj } from "@/lib/customers/document";
import { db, type Tx } from "@/lib/db/client";
import { requestTransactionOptions } from "@/lib/db/transaction";
import { DomainError, invalidField } from "@/lib/errors";
import { withdrawalEndsOn } from "@/lib/contracts/withdrawal";
import { addDays, formatReais, shareProportionally } from "@/lib/finance";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { LATE_PAYOFF_DAYS } from "@/lib/settlements/payoff-quote";
import { dateColumn, isoDate } from "@/lib/serialize";
import type { AssignmentResponse, CreateAssignmentBody } from "./schemas";
import { priceLines } from "./pricing";
import { toAssignmentResponse } from "./serialize";

// POST /v1/assignments: contracts offered to an assignee, priced on the settlement date — each contract's open
// installments at their present value at the discount rate (finance library, payoffLines), or a total price
// shared in proportion to the contracts' open face value. The contracts are locked (in id order, so two
// requests cannot deadlock) and checked: active, past the borrower's withdrawal period, not in another live
// assignment (the row locks settle races; a partial unique index backs them), no pending settlement. Rows, audit and `assignment.created` in one transaction.

export async function createAssignment(scope: Scope, actor: Actor, body: CreateAssignmentBody): Promise<AssignmentResponse> {
  const assigneeDocument = parseCnpj(body.assignee.document, "assignee.document");
  const today = todayInBrazil();
  const date = body.settlement_date ?? today;
  if (date < today) throw invalidField("settlement_date", "Must be today or later");
  // An offer holds its contracts from other offers and from write-off (not from their borrowers' payoff: a settlement
  // takes a contract out of it, ./leave-offer.ts): at most as far ahead as a settlement may be dated.
  const latest = addDays(today, LATE_PAYOFF_DAYS);
  if (date > latest) throw invalidField("settlement_date", `Must be on or before ${latest} (${LATE_PAYOFF_DAYS} days from today): the offer holds its contracts until then`);
  return db().$transaction(async (tx) => {
    const ids = [...body.contract_ids].sort();
    await tx.$queryRaw`SELECT id FROM contracts WHERE id = ANY(${ids}) AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" ORDER BY id FOR UPDATE`;
    const contracts = await tx.contract.findMany({ where: { id: { in: ids }, ...where(scope) } });
    const found = new Map(contracts.map((c) => [c.id, c]));
    body.contract_ids.forEach((id, index) => {
      const contract = found.get(id);
      if (!contract) throw invalidField(`contract_ids.${index}`, "Not a contract of this environment");
      if (contract.status !== "active") throw new DomainError("contract_not_active", `Contract ${id} is ${contract.status}: only active contracts are assigned`, { contract_id: id, current_status: contract.status });
      checkWithdrawalEnded(contract, today);
      checkNoCredit(contract);
    });
    await assertFree(tx, scope, ids);

    const open = await tx.installment.findMany({ where: { ...where(scope), contractId: { in: ids }, status: { in: ["open", "partially_paid"] } }, orderBy: [{ dueDate: "asc" }, { number: "asc" }] });
    const lines = priceLines(body.contract_ids, open, date, body.discount_rate);
    if (lines.every((l) => l.face === 0)) throw invalidField("contract_ids", "Nothing is open on these contracts");
    const faceValue = lines.reduce((s, l) => s + l.face, 0);
    // More than every open installment is worth at face: a buyer paying it loses money on every outcome (a typo, or
    // the price of another portfolio). The discount-rate price is a present value, never above face.
    if (body.price !== undefined && body.price > faceValue) {
      throw invalidField("price", `Must not exceed the contracts' open face value (${formatReais(faceValue)} BRL)`);
    }
    const prices = body.price !== undefined ? shareProportionally(body.price, lines.map((l) => l.face)) : lines.map((l) => l.value);

    const id = newId("assignment");
    const price = prices.reduce((s, p) => s + p, 0);
    const row = await tx.assignment.create({
      data: {
        id,
        ...where(scope),
        assigneeName: body.assignee.name,
        assigneeDocument,
        status: "pending",
        settlementDate: dateColumn(date),
        pricingMethod: body.discount_rate !== undefined ? "discount_rate" : "price",
        discountRate: body.discount_rate ?? null,
        faceValue: BigInt(faceValue),
        price: BigInt(price),
        contractCount: lines.length,
      },
    });
    await tx.assignmentContract.createMany({
      data: lines.map((l, k) => ({ assignmentId: id, contractId: l.contractId, ...where(scope), faceValue: BigInt(l.face), price: BigInt(prices[k]!), live: true })),
    });
    const response = toAssignmentResponse(row, await tx.assignmentContract.findMany({ where: { assignmentId: id } }));
    await writeAudit(tx, { ...where(scope), actor, action: "assignment.created", target: { type: "assignment", id }, metadata: { contracts: lines.length, face_value: faceValue, price } });
    await writeOutboxEvent(tx, { ...where(scope), type: "assignment.created", payload: response as unknown as Prisma.InputJsonObject });
    return response;
  }, requestTransactionOptions());
}

/** The borrower may still withdraw (CDC art. 49, lib/contracts/withdrawal.ts): a contract is not sold before that
 *  ends — an assigned contract cannot be canceled, so the sale would take the right away. 409. */
function checkWithdrawalEnded(contract: { id: string; disbursementDate: Date }, today: string): void {
  const ends = withdrawalEndsOn(isoDate(contract.disbursementDate));
  if (today <= ends) {
    throw new DomainError("conflict", `Contract ${contract.id} is in the borrower's withdrawal period until ${ends}: it can be assigned from the next day`, {
      contract_id: contract.id,
      withdrawal_ends_on: ends,
    });
  }
}

/** None of the contracts is in a live assignment or has a pending settlement (409 otherwise). */
export async function assertFree(tx: Tx, scope: Scope, contractIds: string[], exceptAssignment?: string): Promise<void> {
  const taken = await tx.assignmentContract.findFirst({ where: { ...where(scope), contractId: { in: contractIds }, live: true, ...(exceptAssignment ? { NOT: { assignmentId: exceptAssignment } } : {}) } });
  if (taken) throw new DomainError("conflict", `Contract ${taken.contractId} is in assignment ${taken.assignmentId}`, { contract_id: taken.contractId, assignment_id: taken.assignmentId });
  const settling = await tx.settlement.findFirst({ where: { ...where(scope), contractId: { in: contractIds }, status: "pending" } });
  if (settling) throw new DomainError("conflict", `Contract ${settling.contractId} has a pending settlement (${settling.id})`, { contract_id: settling.contractId, settlement_id: settling.id });
}

/** A contract holding the borrower's credit (money received beyond what was due) is not sold: the payoff nets that
 *  credit, so the assignee would be paid less than it bought, and the money is the seller's to refund or apply. */
export function checkNoCredit(contract: { id: string; creditBalance: bigint }): void {
  if (contract.creditBalance > 0n) {
    throw new DomainError("conflict", `Contract ${contract.id} holds ${contract.creditBalance} centavos of the borrower's credit: refund it or let the collection job apply it first`, {
      contract_id: contract.id,
      credit_balance: Number(contract.creditBalance),
    });
  }
}
