import type { Actor } from "@/lib/audit/audit-log";
import { todayInBrazil } from "@/lib/clock";
import { toPaymentResponse } from "@/lib/collection/serialize";
import { toContractResponse } from "@/lib/contracts/serialize";
import type { Environment, Prisma } from "@prisma/client";
import { toInstallmentResponse } from "@/lib/installments/serialize";
import { toEndorsementResponse } from "@/lib/payroll/endorsement-transition";
import { CONTRACT_TRANSITIONS, type ContractStatus } from "@/lib/contracts/transitions";
import { ENDORSEMENT_AUDIT_ACTIONS, ENDORSEMENT_TRANSITIONS } from "@/lib/payroll/transitions";
import { nextState } from "@/lib/state-machine";
import { CONTRACT_COLUMNS, INSTALLMENT_COLUMNS, toContract, toInstallment, type ContractText, type InstallmentText } from "@/lib/contracts/sql-rows";
import { queryRows, raw, sql } from "@/lib/db/sql";
import { newId } from "@/lib/ids";
import { type Scope } from "@/lib/scope";
import { dateColumn } from "@/lib/serialize";
import { checkNotTaken, checkReceivedDate, checkSettleable, computeQuote } from "./payoff-quote";
import type { CreateSettlementBody } from "./schemas";
import { toSettlementResponse } from "./serialize";
import { SETTLEMENT_TRANSITIONS } from "./transitions";

// The batch's hot path: a full settlement with funds received, in plain SQL inside the caller's
// withSqlTransaction — lock and read the contract (with its pending settlement and pending offer), read its
// open installments, then one statement that writes everything createSettlementIn + completeSettlementIn
// would: the settlement (completed), every installment paid (unnest), the contract settled, a payroll contract's
// averbação `terminating`, the payment, the audit rows (three, and the averbação's), the events (installment.paid per
// installment, contract.closed, payment.received, settlement.completed, and the averbação's) and the batch item's
// result. Same rules (checkSettleable, checkNotTaken), same transition tables, same quote (computeQuote), same
// serializers for the event payloads; tests/settlements/batch-sql-path.test.ts compares its database state with the
// generic path's. ~20 Prisma statements + one per installment → 3 (fence and lock, read, write).

type Taken = { pending_settlement: string | null; pending_offer: string | null; open_charges: boolean; endorsement: Record<string, unknown> | null };

/** The contract has open charges to cancel, or is on offer in a pending assignment that it must leave
 *  (lib/assignments/leave-offer.ts): the services' path does that (batch.ts falls back to it for this item; nothing was
 *  written). */
export class NeedsServicesPath extends Error {}

/** The batch's lease was taken over by another request (lib/settlements/batch.ts): nothing was written. */
export class LeaseLost extends Error {}

/** The item, and the lease on its batch this transaction checks (lib/settlements/batch.ts). */
export type BatchItemRef = { batchId: string; index: number; contractId: string | null; leaseToken: string };

export async function settleFullReceivedSql(scope: Scope, actor: Actor, body: CreateSettlementBody, item: BatchItemRef): Promise<string> {
  const date = body.date ?? todayInBrazil();
  // Check the batch's lease (share-locked until commit, as batch.ts's fence) and lock the contract, then read in a
  // statement of its own: a statement that waited for the lock would have read the pending settlement, assignment,
  // charges and installments with the snapshot taken before the wait (READ COMMITTED), missing what the transaction
  // it waited for had just committed.
  const [fenced] = await queryRows<{ held: string | null }>(sql`
    SELECT (SELECT id FROM settlement_batches WHERE id = ${item.batchId} AND lease_token = ${item.leaseToken} FOR SHARE) AS held,
           (SELECT id FROM contracts WHERE id = ${body.contract_id} AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" FOR UPDATE) AS locked`);
  if (!fenced!.held) throw new LeaseLost();
  // One read for the contract (with its pending settlement, pending offer, open charges and averbação) and its
  // open installments: each round trip cost ≈ 0.2 ms of the item's ≈ 4.
  const [found] = await queryRows<{ contract: (ContractText & Taken) | null; installments: InstallmentText[] | null }>(sql`
    SELECT (SELECT row_to_json(x) FROM (
              SELECT ${raw(CONTRACT_COLUMNS)},
                     (SELECT s.id FROM settlements s WHERE s.contract_id = c.id AND s.status = 'pending' LIMIT 1) AS pending_settlement,
                     (SELECT a.assignment_id FROM assignment_contracts a JOIN assignments o ON o.id = a.assignment_id
                               WHERE a.contract_id = c.id AND a.live AND o.status = 'pending' LIMIT 1) AS pending_offer,
                     EXISTS (SELECT 1 FROM charges ch WHERE ch.tenant_id = c.tenant_id AND ch.environment = c.environment AND ch.contract_id = c.id
                               AND ch.status IN ('pending', 'partially_paid', 'overdue')) AS open_charges,
                     (SELECT row_to_json(en) FROM endorsements en WHERE en.tenant_id = c.tenant_id AND en.environment = c.environment AND en.proposal_id = c.proposal_id
                               AND en.status = 'endorsed' LIMIT 1) AS endorsement
              FROM contracts c
              WHERE c.id = ${body.contract_id} AND c.tenant_id = ${scope.tenantId} AND c.environment = ${scope.environment}::"Environment") x) AS contract,
           (SELECT json_agg(x ORDER BY x.due_date, x.number) FROM (
              SELECT ${raw(INSTALLMENT_COLUMNS)} FROM installments i
              WHERE i.contract_id = ${body.contract_id} AND i.tenant_id = ${scope.tenantId} AND i.environment = ${scope.environment}::"Environment"
                AND i.status IN ('open', 'partially_paid')) x) AS installments`);
  const c = found!.contract;
  const contract = c ? toContract(c) : null;
  const open = (found!.installments ?? []).map(toInstallment);
  checkSettleable(contract, open, date, "date");
  checkReceivedDate(body.payment_method, date);
  checkNotTaken(c!.pending_settlement);
  // On offer (an assigned contract's live row is its sale, no obstacle): it leaves the offer, as the services do it.
  if (c!.open_charges || c!.pending_offer) throw new NeedsServicesPath();
  const settled = contract!;
  const closedAs = nextState(CONTRACT_TRANSITIONS, "contract", settled.status as ContractStatus, "settle");
  const completedAs = nextState(SETTLEMENT_TRANSITIONS, "settlement", "pending", "complete"); // created and completed at once

  const quote = computeQuote(settled, open, date);
  const needed = quote.amount;
  const now = new Date();
  const settlementId = newId("settlement");
  const payment = {
    id: newId("payment"), tenantId: scope.tenantId, environment: scope.environment, contractId: settled.id, installmentId: null, chargeId: null,
    settlementId, assignmentId: settled.assignmentId, amount: BigInt(needed), source: "settlement", competence: null,
    allocations: quote.installments.map((l) => ({ installment_id: l.installment_id, number: l.number, fine: l.fine, late_interest: l.late_interest, discount: l.discount, total: l.total })),
    credit: 0n, creditApplied: BigInt(quote.credit_applied), provider: null, providerEventId: null, paidAt: now, createdAt: now,
  };
  const settlement = toSettlementResponse({
    id: settlementId, tenantId: scope.tenantId, environment: scope.environment, contractId: settled.id, batchId: item.batchId, type: "full", status: completedAs,
    settlementDate: dateColumn(date), amount: BigInt(needed), reduce: null, paymentMethod: "received", quote, reschedule: null, chargeId: null,
    paymentId: payment.id, cancelReason: null, completedAt: now, canceledAt: null, createdAt: now, updatedAt: now,
  });
  const closed = toContractResponse({
    ...settled,
    status: closedAs,
    amountPaid: settled.amountPaid + BigInt(needed + quote.credit_applied),
    outstandingBalance: 0n,
    creditBalance: settled.creditBalance - BigInt(quote.credit_applied),
    updatedAt: now,
  });
  const audits: { id: string; action: string; target_type: string; target_id: string; metadata: Record<string, unknown> }[] = [
    { id: newId("audit"), action: "settlement.created", target_type: "settlement", target_id: settlementId, metadata: { contract_id: settled.id, type: "full", amount: needed, payment_method: "received" } },
    { id: newId("audit"), action: "contract.closed", target_type: "contract", target_id: settled.id, metadata: { from: settled.status, to: closedAs, settlement_id: settlementId } },
    { id: newId("audit"), action: "settlement.completed", target_type: "settlement", target_id: settlementId, metadata: { from: "pending", to: completedAs, payment_id: payment.id, amount: needed } },
  ];
  // A payroll contract's averbação ends with it (lib/payroll/endorsement-termination.ts): `terminating` here, the
  // worker asks the authority.
  const endorsement = c!.endorsement ? endingEndorsement(c!.endorsement, now) : null;
  if (endorsement) {
    audits.push({ id: newId("audit"), action: ENDORSEMENT_AUDIT_ACTIONS.end, target_type: "endorsement", target_id: endorsement.id, metadata: { proposal_id: endorsement.proposal_id } });
  }
  const byId = new Map(open.map((i) => [i.id, i]));
  const installmentEvents = quote.installments.map((l) => {
    const row = byId.get(l.installment_id)!;
    const paid = {
      ...row,
      paidAmount: row.paidAmount + BigInt(l.open_amount),
      finePaid: row.finePaid + BigInt(l.fine),
      lateInterestPaid: row.lateInterestPaid + BigInt(l.late_interest),
      status: "paid",
      paidAt: now,
      contract: { terms: settled.terms },
    };
    return { id: newId("event"), type: "installment.paid", payload: toInstallmentResponse(paid, todayInBrazil(now)) };
  });
  const events = [
    ...installmentEvents,
    { id: newId("event"), type: "contract.closed", payload: { ...closed, reason: "settled", settlement_id: settlementId } },
    ...(endorsement ? [{ id: newId("event"), type: "endorsement.status_changed", payload: { ...endorsement, previous_status: "endorsed" } }] : []),
    { id: newId("event"), type: "payment.received", payload: toPaymentResponse(payment) },
    { id: newId("event"), type: "settlement.completed", payload: settlement },
  ];
  const lines = quote.installments;
  // The averbação's audit row and event are written only if its update found it still endorsed (en).
  const [written] = await queryRows<{ installments: number }>(sql`
    WITH s AS (
      INSERT INTO settlements (id, tenant_id, environment, contract_id, batch_id, type, status, settlement_date, amount, payment_method, quote, payment_id, completed_at, created_at, updated_at)
      VALUES (${settlementId}, ${scope.tenantId}, ${scope.environment}::"Environment", ${settled.id}, ${item.batchId}, 'full', ${completedAs}, ${date}::date,
              ${String(needed)}::bigint, 'received', ${JSON.stringify(quote)}::jsonb, ${payment.id}, ${now}, ${now}, ${now})
    ), i AS (
      UPDATE installments AS t
      SET paid_amount = t.paid_amount + u.open, fine_paid = t.fine_paid + u.fine, late_interest_paid = t.late_interest_paid + u.late, status = 'paid', paid_at = ${now}
      FROM unnest(${lines.map((l) => l.installment_id)}::text[], ${lines.map((l) => String(l.open_amount))}::bigint[],
                  ${lines.map((l) => String(l.fine))}::bigint[], ${lines.map((l) => String(l.late_interest))}::bigint[]) AS u(id, open, fine, late)
      WHERE t.id = u.id AND t.contract_id = ${settled.id}
      RETURNING t.id
    ), k AS (
      UPDATE contracts SET status = ${closedAs}, amount_paid = amount_paid + ${String(needed + quote.credit_applied)}::bigint, outstanding_balance = 0,
             credit_balance = credit_balance - ${String(quote.credit_applied)}::bigint, updated_at = ${now}
      WHERE id = ${settled.id}
    ), en AS (
      UPDATE endorsements SET status = ${endorsement?.status ?? null}, termination_reason = 'settled', termination_next_attempt_at = ${now}, updated_at = ${now}
      WHERE id = ${endorsement?.id ?? null} AND status = 'endorsed'
      RETURNING id
    ), p AS (
      INSERT INTO payments (id, tenant_id, environment, contract_id, assignment_id, settlement_id, amount, source, allocations, credit, credit_applied, paid_at, created_at)
      VALUES (${payment.id}, ${scope.tenantId}, ${scope.environment}::"Environment", ${settled.id}, ${settled.assignmentId}, ${settlementId}, ${String(needed)}::bigint, 'settlement',
              ${JSON.stringify(payment.allocations)}::jsonb, 0, ${String(quote.credit_applied)}::bigint, ${now}, ${now})
    ), a AS (
      INSERT INTO audit_logs (id, tenant_id, environment, actor_type, actor_id, actor_label, action, target_type, target_id, metadata, created_at)
      SELECT x.id, ${scope.tenantId}, ${scope.environment}::"Environment", ${actor.type}, ${actor.id ?? null}, ${actor.label}, x.action, x.target_type, x.target_id, x.metadata, ${now}
      FROM jsonb_to_recordset(${JSON.stringify(audits)}::jsonb) AS x(id text, action text, target_type text, target_id text, metadata jsonb)
      WHERE x.target_type <> 'endorsement' OR EXISTS (SELECT 1 FROM en)
    ), e AS (
      INSERT INTO outbox_events (id, tenant_id, environment, type, payload, created_at)
      SELECT x.id, ${scope.tenantId}, ${scope.environment}::"Environment", x.type, x.payload, ${now}
      FROM jsonb_to_recordset(${JSON.stringify(events)}::jsonb) AS x(id text, type text, payload jsonb)
      WHERE x.type <> 'endorsement.status_changed' OR EXISTS (SELECT 1 FROM en)
    ), b AS (
      INSERT INTO settlement_batch_items (batch_id, index, contract_id, status, settlement_id, created_at)
      VALUES (${item.batchId}, ${item.index}, ${item.contractId}, 'created', ${settlementId}, ${now})
    )
    SELECT count(*)::int AS installments FROM i`);
  if (written!.installments !== lines.length) throw new Error(`settled ${written!.installments} of ${lines.length} installments`);
  return settlementId;
}

/** The endorsement (a row_to_json of it) as it is once its termination is requested. */
function endingEndorsement(row: Record<string, unknown>, now: Date) {
  const at = (v: unknown) => (v ? new Date(v as string) : null);
  return toEndorsementResponse({
    id: row.id as string,
    tenantId: row.tenant_id as string,
    environment: row.environment as Environment,
    proposalId: row.proposal_id as string,
    reservationId: row.reservation_id as string,
    contractNumber: row.contract_number as string,
    status: nextState(ENDORSEMENT_TRANSITIONS, "endorsement", "endorsed", "end"),
    authorityEndorsementId: (row.authority_endorsement_id as string | null) ?? null,
    refusal: (row.refusal as Prisma.JsonValue) ?? null,
    endorsedAt: at(row.endorsed_at),
    terminationReason: "settled",
    terminationAttempts: 0,
    terminationNextAttemptAt: now,
    terminationLastError: null,
    terminatedAt: null,
    recoveryAttempts: Number(row.recovery_attempts ?? 0),
    recoveryNextAttemptAt: null,
    recoveryLastError: null,
    createdAt: at(row.created_at)!,
    updatedAt: now,
  });
}
