import { Prisma } from "@prisma/client";
import { writeAudit } from "@/lib/audit/audit-log";
import { eraseStoredAnswers } from "@/lib/api/idempotency";
import { db, type Tx } from "@/lib/db/client";
import { requestTransactionOptions } from "@/lib/db/transaction";
import { DomainError, notFound } from "@/lib/errors";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where } from "@/lib/scope";
import type { CustomerContext } from "./create-customer";
import type { DeletedCustomer } from "./schemas";

// DELETE /v1/customers/{id} — erasing a person's data at their request (LGPD art. 18 VI) when no credit operation holds
// it. A customer with a proposal, a contract or a margin reservation (an act at the payroll authority), or a reservation
// call whose answer was lost and is still being recovered (the authority may hold one), is refused (409):
// those are the records of a credit operation, which the lender must keep for at least five years after the
// relationship ends (Lei 9.613/1998 art. 10; LGPD art. 16 I) — this endpoint never deletes them.
//
// Otherwise, in one transaction, under the customer's row lock (every path that makes something for a customer takes it
// FOR KEY SHARE: a proposal, a reservation, a risk assessment, a margin query or a simulation made at the same moment
// either commits first — then it blocks or is erased here — or finds no customer):
// - deleted: the customer, its simulations, risk assessments (birth date, income, score) and margin queries (benefit
//   number, margins);
// - their events keep their id, type and time, but their data becomes `{ id, object, erased: true }` (GET /v1/events, a
//   delivery still to be sent), and the webhook attempts that carried them lose the bodies sent and received;
// - the audit rows about them keep who did what and when, not the values (`metadata: { erased: true }`);
// - stored answers of idempotent requests that hold them answer 404 from now on (a replay would have shown the data
//   again; the key stays used, so a replayed POST /v1/customers cannot register the person anew);
// - one audit row `customer.deleted` (counts only) and one event `customer.deleted` (`{ id, object, deleted: true }`).
// The document is free again: registering the person later makes a new customer.

/** Event types whose data is one of the erased objects (its `id`), CPF, income or benefit number included. The partial
 *  index `outbox_events_personal_object` (migration 20261205090000) is defined over exactly these: keep them equal. */
export const PERSONAL_EVENT_TYPES = ["customer.created", "customer.updated", "simulation.created", "risk_assessment.created", "margin_query.completed"] as const;

// Written out, not bound: the planner uses a partial index only for a predicate it can see implies the index's.
const PERSONAL_TYPES_SQL = Prisma.raw(PERSONAL_EVENT_TYPES.map((type) => `'${type}'`).join(", "));

export async function eraseCustomer(ctx: CustomerContext, id: string): Promise<DeletedCustomer> {
  return db().$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string; document: string }[]>`
      SELECT id, document FROM customers WHERE id = ${id} AND tenant_id = ${ctx.tenantId} AND environment = ${ctx.environment}::"Environment" FOR UPDATE`;
    if (!locked) throw notFound("Customer");
    await refuseIfRetained(tx, ctx, id, locked.document);

    const owned = async (table: "simulations" | "risk_assessments" | "margin_queries") =>
      (await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM ${Prisma.raw(table)} WHERE tenant_id = ${ctx.tenantId} AND environment = ${ctx.environment}::"Environment" AND customer_id = ${id}`).map((r) => r.id);
    const simulations = await owned("simulations");
    const riskAssessments = await owned("risk_assessments");
    const marginQueries = await owned("margin_queries");
    const objects = [id, ...simulations, ...riskAssessments, ...marginQueries];

    // Locked in id order, as the webhook worker holds the events of the attempts it records (lib/webhooks/worker.ts
    // erasedSinceClaimed): an attempt in flight now is recorded either before this (and blanked below) or after it,
    // seeing its event erased — never with the data sent, after the erasure.
    const events = (
      await tx.$queryRaw<{ id: string }[]>`
        UPDATE outbox_events
           SET payload = jsonb_build_object('id', payload -> 'id', 'object', payload -> 'object', 'erased', true)
         WHERE id IN (
           SELECT id FROM outbox_events
            WHERE tenant_id = ${ctx.tenantId} AND environment = ${ctx.environment}::"Environment"
              AND (payload ->> 'id') = ANY(${objects}::text[])
              AND type IN (${PERSONAL_TYPES_SQL})
            ORDER BY id FOR UPDATE)
        RETURNING id`
    ).map((r) => r.id);
    const attempts = events.length === 0 ? 0 : await tx.$executeRaw`
      UPDATE webhook_attempts AS a
         SET request_body = '{"erased":true}', response_body = NULL -- lib/webhooks/worker.ts ERASED_BODY
        FROM webhook_deliveries AS d
       WHERE a.delivery_id = d.id AND d.tenant_id = ${ctx.tenantId} AND d.environment = ${ctx.environment}::"Environment"
         AND d.event_id = ANY(${events}::text[])`;
    const auditRows = await tx.$executeRaw`
      UPDATE audit_logs SET metadata = '{"erased":true}'::jsonb
       WHERE tenant_id = ${ctx.tenantId} AND target_id = ANY(${objects}::text[])`;
    // Reservation calls written ahead for the recovery worker (lib/payroll/reservation-recovery.ts) keep the request they
    // sent — CPF and benefit number — once settled; a pending one refused the erasure above.
    const recoveries = await tx.$executeRaw`
      UPDATE reservation_recoveries SET request = request - 'document' - 'source'
       WHERE tenant_id = ${ctx.tenantId} AND environment = ${ctx.environment}::"Environment" AND request ->> 'document' = ${locked.document}`;
    const storedAnswers = await eraseStoredAnswers(tx, ctx, objects, `Customer ${id} was erased at its subject's request (LGPD): what this request made no longer exists`);

    await tx.marginQuery.deleteMany({ where: { ...where(ctx), customerId: id } });
    await tx.riskAssessment.deleteMany({ where: { ...where(ctx), customerId: id } });
    await tx.simulation.deleteMany({ where: { ...where(ctx), customerId: id } });
    await tx.customer.delete({ where: { id } });

    const erased = {
      simulations: simulations.length,
      risk_assessments: riskAssessments.length,
      margin_queries: marginQueries.length,
      events: events.length,
      webhook_attempts: attempts,
      audit_rows: auditRows,
      idempotency_records: storedAnswers,
      reservation_recoveries: recoveries,
    };
    await writeAudit(tx, { ...where(ctx), actor: ctx.actor, action: "customer.deleted", target: { type: "customer", id }, metadata: { erased } });
    const deleted: DeletedCustomer = { id, object: "customer", deleted: true };
    await writeOutboxEvent(tx, { ...where(ctx), type: "customer.deleted", payload: deleted });
    return deleted;
  }, requestTransactionOptions());
}

/** 409 when a credit operation holds the customer's data (kept for the legal retention period, never erased here). */
async function refuseIfRetained(tx: Tx, ctx: CustomerContext, id: string, document: string): Promise<void> {
  const [held] = await tx.$queryRaw<{ kind: string; id: string }[]>`
    (SELECT 'contract' AS kind, id FROM contracts WHERE tenant_id = ${ctx.tenantId} AND environment = ${ctx.environment}::"Environment" AND customer_id = ${id} LIMIT 1)
    UNION ALL
    (SELECT 'proposal', id FROM proposals WHERE tenant_id = ${ctx.tenantId} AND environment = ${ctx.environment}::"Environment" AND customer_id = ${id} LIMIT 1)
    UNION ALL
    (SELECT 'margin_reservation', id FROM margin_reservations WHERE tenant_id = ${ctx.tenantId} AND environment = ${ctx.environment}::"Environment" AND customer_id = ${id} LIMIT 1)
    UNION ALL
    -- A reservation call whose answer was lost, still being recovered: the authority may hold a reservation under the CPF.
    (SELECT 'reservation_recovery', id FROM reservation_recoveries WHERE tenant_id = ${ctx.tenantId} AND environment = ${ctx.environment}::"Environment" AND status = 'pending' AND request ->> 'document' = ${document} LIMIT 1)
    LIMIT 1`;
  if (!held) return;
  throw new DomainError(
    "conflict",
    `Customer ${id} has ${held.kind.replace("_", " ")} ${held.id}: the records of a credit operation are kept for the legal retention period (at least five years after the relationship ends) and cannot be erased`,
    { [`${held.kind}_id`]: held.id },
  );
}
