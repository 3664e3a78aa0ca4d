import type { Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { DomainError, notFound } from "@/lib/errors";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import type { PaymentResponse } from "./schemas";
import { chargePaymentRow, paidAtOf } from "./pay-charge";
import { toPaymentResponse } from "./serialize";
import type { ChargeStatus } from "./transitions";

// Money the payment provider received for a charge that can no longer be paid: a boleto paid twice, or paid after
// its cancellation reached us but before it reached the bank. The money is already in the beneficiary's account
// and belongs to the borrower, so it is recorded, never refused (a refusal would only make the provider retry):
// a payment with no allocation whose whole amount is the contract's credit — kept until used or refunded, like
// any overpayment — with its audit entry and `payment.received`, in one transaction. The charge stays as it is
// (paid, canceled and expired are final). The sandbox's pay endpoint answers 409 instead, as a bank refuses to
// take a canceled boleto.

const CLOSED: readonly ChargeStatus[] = ["paid", "canceled", "expired"];

export type ClosedChargeMoney = { amount: number; paidOn: string; providerEventId: string };

export async function creditClosedChargePayment(scope: Scope, actor: Actor, chargeId: string, received: ClosedChargeMoney): Promise<PaymentResponse> {
  return db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM charges WHERE id = ${chargeId} AND tenant_id = ${scope.tenantId} FOR UPDATE`;
    const charge = await tx.charge.findFirst({ where: { id: chargeId, ...where(scope) } });
    if (!charge) throw notFound("Charge");
    if (!CLOSED.includes(charge.status as ChargeStatus)) {
      throw new DomainError("conflict", "The charge is still payable: its payment is allocated to its installments");
    }
    const contract = await tx.contract.update({
      where: { id: charge.contractId },
      data: { creditBalance: { increment: BigInt(received.amount) } },
      select: { id: true, assignmentId: true },
    });
    const payment = await tx.payment.create({
      data: chargePaymentRow(scope, charge, contract, { amount: received.amount, allocations: [], credit: received.amount, providerEventId: received.providerEventId, paidAt: paidAtOf(received.paidOn) }),
    });
    const body = toPaymentResponse(payment);
    await writeAudit(tx, {
      ...where(scope),
      actor,
      action: "payment.received",
      target: { type: "payment", id: payment.id },
      metadata: { charge_id: charge.id, charge_status: charge.status, amount: received.amount, credit: received.amount },
    });
    await writeOutboxEvent(tx, { ...where(scope), type: "payment.received", payload: body as unknown as Prisma.InputJsonObject });
    return body;
  });
}
