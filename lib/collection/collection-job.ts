import type { Prisma } from "@prisma/client";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { cancelLapsedAssignments } from "@/lib/assignments/assignments";
import { writeAudit, type Actor } from "@/lib/audit/audit-log";
import { COLLECTIBLE } from "@/lib/contracts/transitions";
import { toInstallmentResponse } from "@/lib/installments/serialize";
import { latestLateDueDate } from "@/lib/finance";
import { isDatabaseUnavailable } from "@/lib/db/availability";
import { log } from "@/lib/log";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { cancelLapsedSettlements } from "@/lib/settlements/settlements";
import { dateColumn } from "@/lib/serialize";
import { applyCreditIn } from "./apply-credit";
import { toChargeResponse } from "./serialize";
import { CHARGE_EVENTS } from "./transitions";

// The collection job (`npm run jobs -- collection`, from a scheduler every few minutes; safe to run
// concurrently or repeatedly — every change is conditional on the state it read):
//  1. Pix `cob` charges still pending (or paid in part) past their expiry → expired (`charge.expired`);
//  2. charges pending or partially paid and late → overdue (`charge.overdue`);
//  3. installments unpaid and late, seen for the first time → `installment.overdue` (once each: `overdue_at`
//     records it; their status stays derived from the date, lib/installments/amount-due.ts);
//  late: past the due date, or past the next business day when it fell on a weekend or holiday (Lei 7.089/1983,
//  lib/finance/late-charges.ts) — a boleto due on Saturday and paid on Monday was never late;
//  0. first, pending settlements past their date → canceled with their charge (`settlement.canceled`): their
//     quote no longer holds (lib/settlements/settlements.ts); so are pending assignments past theirs, freeing their
//     contracts (lib/assignments/assignments.ts);
//  then contracts with a credit and installments due by today: the credit pays them (`contract.credit_applied`,
//     ./apply-credit.ts) before anything is marked overdue, so a borrower who paid ahead owes no late charge.

const BATCH = 500;

export type CollectionJobResult = { lapsedSettlements: number; lapsedAssignments: number; creditsApplied: number; expired: number; overdueCharges: number; overdueInstallments: number };

const JOB: Actor = { type: "system", label: "collection job" };

export async function runCollectionJob(now = new Date()): Promise<CollectionJobResult> {
  const asOf = todayInBrazil(now);
  const { canceled: lapsedSettlements } = await cancelLapsedSettlements(asOf);
  const { canceled: lapsedAssignments } = await cancelLapsedAssignments(asOf);
  const today = dateColumn(asOf);
  const lateThrough = dateColumn(latestLateDueDate(asOf));
  let creditsApplied = 0;
  // Keyset over ids: a contract handled (or changed by someone else meanwhile) is never read twice in a run.
  for (let batch = await creditable(today, ""); batch.length > 0; batch = await creditable(today, batch.at(-1)!.id)) {
    for (const c of batch) {
      const scope = { tenantId: c.tenantId, environment: c.environment };
      try {
        if (await db().$transaction((tx) => applyCreditIn(tx, scope, JOB, c.id, asOf, now))) creditsApplied += 1;
      } catch (err) {
        // One contract's failure (a lock wait past the transaction's limit, a bug) must not keep every other contract
        // from its credit, nor the charges and installments below from being marked: logged, retried next run.
        if (isDatabaseUnavailable(err)) throw err; // the database itself: the whole run fails, and the poll loop says so once
        log().error({ err, contract_id: c.id, tenant_id: c.tenantId }, "applying a contract's credit failed; the job goes on");
      }
    }
  }
  let expired = 0;
  let overdueCharges = 0;
  let overdueInstallments = 0;

  // Each batch's rows leave the selection once handled (or once someone else changed them): loop until empty.
  for (let batch = await expirable(now); batch.length > 0; batch = await expirable(now)) {
    for (const charge of batch) if (await transition(charge.id, charge.status, "expired")) expired += 1;
  }
  for (let batch = await late(lateThrough); batch.length > 0; batch = await late(lateThrough)) {
    for (const charge of batch) if (await transition(charge.id, charge.status, "overdue")) overdueCharges += 1;
  }
  for (let batch = await unpaid(lateThrough); batch.length > 0; batch = await unpaid(lateThrough)) {
    for (const installment of batch) {
      const marked = await db().$transaction(async (tx) => {
        // Still unpaid: a payment committed since the batch was read (its row lock makes this wait) is not overdue.
        const changed = await tx.installment.updateMany({ where: { id: installment.id, overdueAt: null, status: { in: ["open", "partially_paid"] } }, data: { overdueAt: now } });
        if (changed.count !== 1) return false;
        const row = await tx.installment.findUniqueOrThrow({ where: { id: installment.id }, include: { contract: { select: { terms: true } } } });
        const view = toInstallmentResponse(row, asOf);
        await writeOutboxEvent(tx, { tenantId: installment.tenantId, environment: installment.environment, type: "installment.overdue", payload: view as unknown as Prisma.InputJsonObject });
        return true;
      });
      if (marked) overdueInstallments += 1;
    }
  }
  const result = { lapsedSettlements, lapsedAssignments, creditsApplied, expired, overdueCharges, overdueInstallments };
  if (Object.values(result).some((n) => n > 0)) log().info(result, "collection job");
  return result;
}

// Contracts with a credit (the partial index contracts_with_credit_idx keeps this cheap) and an installment due by today.
const creditable = (today: Date, after: string) =>
  db().contract.findMany({
    where: {
      id: { gt: after },
      creditBalance: { gt: 0 },
      status: { in: [...COLLECTIBLE] },
      installments: { some: { status: { in: ["open", "partially_paid"] }, dueDate: { lte: today } } },
    },
    select: { id: true, tenantId: true, environment: true },
    orderBy: { id: "asc" },
    take: BATCH,
  });

const expirable = (now: Date) => db().charge.findMany({ where: { status: { in: ["pending", "partially_paid"] }, expiresAt: { lte: now } }, take: BATCH });
const late = (lateThrough: Date) => db().charge.findMany({ where: { status: { in: ["pending", "partially_paid"] }, dueDate: { lte: lateThrough }, expiresAt: null }, take: BATCH });
const unpaid = (lateThrough: Date) =>
  db().installment.findMany({
    where: { status: { in: ["open", "partially_paid"] }, dueDate: { lte: lateThrough }, overdueAt: null, contract: { status: { in: [...COLLECTIBLE] } } },
    include: { contract: { select: { terms: true } } },
    take: BATCH,
  });

async function transition(id: string, from: string, to: "expired" | "overdue"): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const changed = await tx.charge.updateMany({ where: { id, status: from }, data: { status: to } });
    if (changed.count !== 1) return false;
    const row = (await tx.charge.findUnique({ where: { id } }))!;
    const action = to === "expired" ? CHARGE_EVENTS.expire : CHARGE_EVENTS.mark_overdue;
    const scope = { tenantId: row.tenantId, environment: row.environment };
    await writeAudit(tx, { ...scope, actor: JOB, action, target: { type: "charge", id }, metadata: { from, to } });
    await writeOutboxEvent(tx, { ...scope, type: action, payload: toChargeResponse(row) as unknown as Prisma.InputJsonObject });
    return true;
  });
}
