import type { Prisma, Refund } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { todayInBrazil } from "@/lib/clock";
import { lockContract } from "@/lib/contracts/lock-contract";
import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { DomainError, invalidField, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import { centavos, dateColumn, isoDate } from "@/lib/serialize";
import type { CreateRefundBody, ListRefundsQuery, RefundResponse } from "./refund-schemas";

// Refunds: a contract's credit — money received beyond what was owed (an overpaid charge, a boleto paid twice, a
// payment that arrived after the contract closed) — is the borrower's, and is owed back. The tenant's bank sends it
// (Pix, TED, …) outside the platform; POST /v1/refunds records that it went, so the books agree: in one transaction,
// under the contract's row lock, the contract's `credit_balance` goes down by the amount (never below 0: 409
// `insufficient_credit`), a refund row, the audit row and the event `refund.created`. Any contract status: the credit
// of a closed contract is exactly what most needs returning.

/** `expectedCredit`: the credit balance the person saw (the panel's form): when the contract's differs now — another
 *  refund, a payment or a second click recorded meanwhile — nothing is recorded (409), so a refund is never recorded
 *  twice by a form sent twice. */
export async function createRefund(scope: Scope, actor: Actor, body: CreateRefundBody, expectedCredit?: number): Promise<RefundResponse> {
  const today = todayInBrazil();
  const refundedOn = body.refunded_on ?? today;
  if (refundedOn > today) throw invalidField("refunded_on", "Must not be after today (Brasília)");
  return db().$transaction(async (tx) => {
    if (!(await lockContract(tx, scope, body.contract_id))) throw notFound("Contract");
    const contract = (await tx.contract.findFirst({ where: { id: body.contract_id, ...where(scope) } }))!;
    // Credit a pending settlement counts on is the settlement's, not refundable while it is pending: the money paid
    // toward it (its charge paid in parts), and the credit its quote netted from the payoff (`credit_applied`:
    // refunded, the borrower's boleto would fall short of the payoff and the settlement could not complete).
    const pending = await tx.settlement.findFirst({ where: { ...where(scope), contractId: contract.id, status: "pending" }, select: { chargeId: true, type: true, quote: true } });
    const heldCharge = pending?.chargeId ? await tx.charge.findFirst({ where: { id: pending.chargeId, ...where(scope) }, select: { amountPaid: true } }) : null;
    const netted = pending?.type === "full" ? ((pending.quote as { credit_applied?: number }).credit_applied ?? 0) : 0; // a partial one nets none
    const credit = centavos(contract.creditBalance);
    if (expectedCredit !== undefined && expectedCredit !== credit) {
      throw new DomainError("conflict", `The contract's credit changed since it was shown (now ${credit} centavos): review it and record the refund again if it is still due`, { credit_balance: credit });
    }
    const refundable = Math.max(0, credit - centavos(heldCharge?.amountPaid ?? 0n) - netted);
    const amount = body.amount ?? refundable;
    if (refundable === 0 || amount > refundable) {
      const why = refundable < credit ? ` (${credit - refundable} of it is held for a pending settlement)` : "";
      throw new DomainError("insufficient_credit", `The contract's refundable credit is ${refundable} centavos${why}${body.amount !== undefined ? `; ${amount} cannot be refunded` : ": nothing to refund"}`, {
        credit_balance: credit,
        refundable,
      });
    }
    await tx.contract.update({ where: { id: contract.id }, data: { creditBalance: { decrement: BigInt(amount) } } });
    const refund = await tx.refund.create({
      data: {
        id: newId("refund"),
        ...where(scope),
        contractId: contract.id,
        assignmentId: contract.assignmentId,
        amount: BigInt(amount),
        method: body.method,
        reference: body.reference ?? null,
        creditAfter: BigInt(credit - amount),
        refundedOn: dateColumn(refundedOn),
      },
    });
    const response = toRefundResponse(refund);
    await writeAudit(tx, {
      ...where(scope),
      actor,
      action: "refund.created",
      target: { type: "contract", id: contract.id },
      metadata: { refund_id: refund.id, amount, method: body.method, credit_before: credit, credit_after: credit - amount },
    });
    await writeOutboxEvent(tx, { ...where(scope), type: "refund.created", payload: response as unknown as Prisma.InputJsonObject });
    return response;
  });
}

export async function getRefund(scope: Scope, id: string): Promise<RefundResponse> {
  const row = await db().refund.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Refund");
  return toRefundResponse(row);
}

export async function listRefunds(scope: Scope, query: ListRefundsQuery) {
  const after = decodeCursor(scope, query.cursor, "refund");
  const filters = { ...where(scope), ...(query.contract_id ? { contractId: query.contract_id } : {}) };
  const page = await paginate(query.limit, (args) => db().refund.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, toRefundResponse);
}

export function toRefundResponse(row: Refund): RefundResponse {
  return {
    id: row.id,
    object: "refund",
    contract_id: row.contractId,
    assignment_id: row.assignmentId,
    amount: centavos(row.amount),
    method: row.method as RefundResponse["method"],
    reference: row.reference,
    credit_after: centavos(row.creditAfter),
    refunded_on: isoDate(row.refundedOn),
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
  };
}
