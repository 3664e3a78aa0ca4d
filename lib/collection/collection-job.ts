import type { Prisma } from "@prisma/client";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { cancelLapsedAssignments } from "@/lib/assignments/assignments";
import { writeAudit, type Actor } from "@/lib/audit/audit-log";
import { COLLECTIBLE } from "@/lib/contracts/transitions";
import { toInstallmentResponse } from "@/lib/installments/serialize";
import { latestLateDueDate } from "@/lib/finance";
import { eachRowById, type JobRow } from "@/lib/jobs/each-row";
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
// Every step reads its rows by keyset over ids (each read once per run) and handles each in a transaction of its own.
// One row that fails (a lock held past the lock or statement timeout, a bug) is logged by id and left for the next run:
// it must not keep any other row, of any tenant, from its step, nor the steps after it from running. Only the database
// itself being unavailable fails the run (the poll loop or the CLI says so once). `failed` counts the rows left so.

const BATCH = 500;

export type CollectionJobResult = {
  lapsedSettlements: number;
  lapsedAssignments: number;
  creditsApplied: number;
  expired: number;
  overdueCharges: number;
  overdueInstallments: number;
  /** Contracts, charges and installments whose step failed this run (logged by id; retried next run). */
  failed: number;
};

const JOB: Actor = { type: "system", label: "collection job" };

export async function runCollectionJob(now = new Date()): Promise<CollectionJobResult> {
  const asOf = todayInBrazil(now);
  const { canceled: lapsedSettlements } = await cancelLapsedSettlements(asOf);
  const { canceled: lapsedAssignments } = await cancelLapsedAssignments(asOf);
  const today = dateColumn(asOf);
  const lateThrough = dateColumn(latestLateDueDate(asOf));
  let failed = 0;
  /** lib/jobs/each-row.ts over one step's rows, its failures added to the run's. */
  const eachRow = async <T extends JobRow>(what: string, idField: string, page: (after: string) => Promise<T[]>, step: (row: T) => Promise<boolean>) => {
    const result = await eachRowById(what, page, step, { idField });
    failed += result.failed;
    return result.done;
  };

  const creditsApplied = await eachRow("applying a contract's credit", "contract_id", (after) => creditable(today, after), async (c) =>
    Boolean(await db().$transaction((tx) => applyCreditIn(tx, { tenantId: c.tenantId, environment: c.environment }, JOB, c.id, asOf, now))),
  );
  const expired = await eachRow("expiring a charge", "charge_id", (after) => expirable(now, after), (charge) => transition(charge.id, charge.status, "expired"));
  const overdueCharges = await eachRow("marking a charge overdue", "charge_id", (after) => late(lateThrough, after), (charge) => transition(charge.id, charge.status, "overdue"));
  const overdueInstallments = await eachRow("marking an installment overdue", "installment_id", (after) => unpaid(lateThrough, after), (installment) =>
    db().$transaction(async (tx) => {
      // Still unpaid: a payment committed since the batch was read (its row lock makes this wait) is not overdue.
      const changed = await tx.installment.updateMany({ where: { id: installment.id, overdueAt: null, status: { in: ["open", "partially_paid"] } }, data: { overdueAt: now } });
      if (changed.count !== 1) return false;
      const row = await tx.installment.findUniqueOrThrow({ where: { id: installment.id }, include: { contract: { select: { terms: true } } } });
      const view = toInstallmentResponse(row, asOf);
      await writeOutboxEvent(tx, { tenantId: installment.tenantId, environment: installment.environment, type: "installment.overdue", payload: view as unknown as Prisma.InputJsonObject });
      return true;
    }),
  );
  const result = { lapsedSettlements, lapsedAssignments, creditsApplied, expired, overdueCharges, overdueInstallments, failed };
  if (failed > 0) log().warn(result, "collection job: some rows failed and were left for the next run");
  else if (Object.values(result).some((n) => n > 0)) log().info(result, "collection job");
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

const expirable = (now: Date, after: string) =>
  db().charge.findMany({
    where: { id: { gt: after }, status: { in: ["pending", "partially_paid"] }, expiresAt: { lte: now } },
    select: { id: true, tenantId: true, status: true },
    orderBy: { id: "asc" },
    take: BATCH,
  });
const late = (lateThrough: Date, after: string) =>
  db().charge.findMany({
    where: { id: { gt: after }, status: { in: ["pending", "partially_paid"] }, dueDate: { lte: lateThrough }, expiresAt: null },
    select: { id: true, tenantId: true, status: true },
    orderBy: { id: "asc" },
    take: BATCH,
  });
const unpaid = (lateThrough: Date, after: string) =>
  db().installment.findMany({
    where: { id: { gt: after }, status: { in: ["open", "partially_paid"] }, dueDate: { lte: lateThrough }, overdueAt: null, contract: { status: { in: [...COLLECTIBLE] } } },
    select: { id: true, tenantId: true, environment: true },
    orderBy: { id: "asc" },
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
