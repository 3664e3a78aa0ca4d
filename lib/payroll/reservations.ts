import type { MarginReservation, Prisma } from "@prisma/client";
import { createHash } from "node:crypto";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { eachRowById, refusedTransition } from "@/lib/jobs/each-row";
import { db, type Tx } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { DomainError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import { nextState } from "@/lib/state-machine";
import { authorityTransactionOptions, payrollAuthorityFor } from "./authority";
import type { PayrollSource, Refusal } from "./authority/types";
import { requireUsableMargin } from "./margin-queries";
import { reserveAtAuthority } from "./reservation-recovery";
import type { CreateReservationBody, ListReservationsQuery, ReservationResponse } from "./schemas";
import { RESERVATION_AUDIT_ACTIONS, RESERVATION_TRANSITIONS, type ReservationAction, type ReservationStatus } from "./transitions";
import { holdCustomer } from "@/lib/customers/hold-customer";

// Margin reservations: hold an installment against a valid margin query at the authority. The authority
// is asked inside the transaction that writes the row, with an idempotency key derived from what the
// reservation is for (the caller's request, or the proposal), so a retry after a crash gets the same
// reservation back from the authority instead of a second one.

export type ReservationRequest = {
  marginQueryId: string;
  customerId: string;
  installmentAmount: number;
  term: number;
  kind: "loan" | "credit_card" | "benefit_card";
  proposalId: string | null;
  /** Stable across retries of the same intent: the authority's idempotency key. */
  authorityKey: string;
};

export async function createReservation(scope: Scope, actor: Actor, requestId: string, body: CreateReservationBody): Promise<ReservationResponse> {
  return db().$transaction(async (tx) => {
    const query = await tx.marginQuery.findFirst({ where: { id: body.margin_query_id, ...where(scope) }, select: { customerId: true } });
    if (!query) throw notFound("Margin query");
    return reserveIn(tx, scope, actor, {
      marginQueryId: body.margin_query_id,
      customerId: query.customerId,
      installmentAmount: body.installment_amount,
      term: body.term,
      kind: body.kind,
      proposalId: null,
      // Per credential, as the request's own idempotency is: two keys of a tenant sending the same X-Request-Id for
      // different reservations are two intents at the authority too.
      authorityKey: authorityKey(scope, "request", `${actor.id ?? actor.label}:${requestId}`),
    });
  }, authorityTransactionOptions());
}

/** Checks the margin, asks the authority and stores the outcome (reserved or refused) with its event. */
export async function reserveIn(tx: Tx, scope: Scope, actor: Actor, request: ReservationRequest): Promise<ReservationResponse> {
  const query = await requireUsableMargin(tx, scope, request.marginQueryId, request.customerId, request.installmentAmount, request.kind);
  // Held for the transaction: a customer with a reservation cannot be erased (lib/customers/erase-customer.ts).
  if (!(await holdCustomer(tx, scope, request.customerId))) throw notFound("Customer");
  const customer = await tx.customer.findFirstOrThrow({ where: { id: request.customerId, ...where(scope) }, select: { document: true } });
  const id = newId("marginReservation");
  await tx.marginReservation.create({
    data: {
      id,
      ...where(scope),
      customerId: request.customerId,
      marginQueryId: query.id,
      proposalId: request.proposalId,
      kind: request.kind,
      installmentAmount: BigInt(request.installmentAmount),
      term: request.term,
      status: "requested",
    },
  });
  // The call is written ahead for the recovery worker, which releases it if this transaction never commits; an
  // earlier call of this reservation whose answer was lost is asked again under its key (lib/payroll/reservation-recovery.ts).
  const answer = await reserveAtAuthority(tx, payrollAuthorityFor(scope.environment), scope, request.authorityKey, {
    authorityQueryId: query.authorityQueryId,
    document: customer.document,
    source: sourceOf(query.source as Record<string, string>),
    kind: request.kind,
    installmentAmount: request.installmentAmount,
    termMonths: request.term,
  });
  if (answer.status === "reserved") {
    return applyReservationActionIn(tx, scope, actor, id, "reserve", { authorityReservationId: answer.authorityReservationId, expiresAt: answer.expiresAt });
  }
  return applyReservationActionIn(tx, scope, actor, id, "refuse", { refusal: answer.refusal });
}

export async function cancelReservation(scope: Scope, actor: Actor, id: string): Promise<ReservationResponse> {
  return db().$transaction(async (tx) => {
    const row = await lockReservation(tx, scope, id);
    // A proposal's reservation goes with its proposal (canceled, rejected, expired): released alone, it would leave
    // an approved or signed proposal holding no margin.
    if (row.proposalId !== null && row.status === "reserved") {
      throw new DomainError("conflict", `The reservation belongs to proposal ${row.proposalId}: cancel the proposal instead`, { proposal_id: row.proposalId });
    }
    return releaseIn(tx, scope, actor, id);
  }, authorityTransactionOptions());
}

/** A payroll proposal's reservation still holding its margin (reserved and not past its expiry), or null. */
export async function heldReservationOf(tx: Tx, scope: Scope, proposalId: string): Promise<MarginReservation | null> {
  const row = await tx.marginReservation.findFirst({ where: { ...where(scope), proposalId, status: "reserved" }, orderBy: { createdAt: "desc" } });
  return row && !isPastExpiry(row) ? row : null;
}

/** Releases a reserved reservation at the authority and here; an expired one is marked expired instead. */
export async function releaseIn(tx: Tx, scope: Scope, actor: Actor, id: string): Promise<ReservationResponse> {
  const row = await lockReservation(tx, scope, id);
  if (row.status === "reserved" && isPastExpiry(row)) return applyReservationActionIn(tx, scope, actor, id, "expire");
  nextState(RESERVATION_TRANSITIONS, "margin reservation", row.status as ReservationStatus, "release"); // 409 before calling out
  await payrollAuthorityFor(scope.environment).releaseReservation({
    authorityReservationId: row.authorityReservationId!,
    requestId: authorityKey(scope, "release", row.id),
  });
  return applyReservationActionIn(tx, scope, actor, id, "release");
}

/** Every open reservation of a proposal is released (its proposal was canceled, rejected or expired). */
export async function releaseProposalReservations(tx: Tx, scope: Scope, actor: Actor, proposalId: string): Promise<void> {
  const open = await tx.marginReservation.findMany({ where: { ...where(scope), proposalId, status: "reserved" }, select: { id: true } });
  for (const r of open) await releaseIn(tx, scope, actor, r.id);
}

export async function getReservation(scope: Scope, id: string): Promise<ReservationResponse> {
  const row = await db().marginReservation.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Margin reservation");
  return toReservationResponse(row);
}

export async function listReservations(scope: Scope, query: ListReservationsQuery) {
  const after = decodeCursor(scope, query.cursor, "marginReservation");
  const filters = {
    ...where(scope),
    ...(query.status ? { status: query.status } : {}),
    ...(query.proposal_id ? { proposalId: query.proposal_id } : {}),
    ...(query.customer_id ? { customerId: query.customer_id } : {}),
  };
  const page = await paginate(query.limit, (args) => db().marginReservation.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, toReservationResponse);
}

/**
 * The expiry job: reserved past expires_at → expired, each in its own transaction with its event. Read by keyset over
 * ids until none is due, so a run leaves no tail however many there are. One that changed meanwhile is skipped; one
 * that fails otherwise (a lock held past the lock or statement timeout, a bug) is logged by id and left for the next
 * run — it must not hold the others back — unless the database itself is unavailable, which fails the run.
 */
export async function expireReservations(now = new Date()): Promise<{ expired: number; failed: number }> {
  const { done: expired, failed } = await eachRowById(
    "expiring a margin reservation",
    (after) =>
      db().marginReservation.findMany({
        where: { id: { gt: after }, status: "reserved", expiresAt: { lte: now } },
        select: { id: true, tenantId: true, environment: true },
        orderBy: { id: "asc" },
        take: 500,
      }),
    (r) =>
      db().$transaction(async (tx) => {
        const scope = { tenantId: r.tenantId, environment: r.environment };
        const row = await lockReservation(tx, scope, r.id);
        if (row.status !== "reserved") return false;
        await applyReservationActionIn(tx, scope, { type: "system", label: "reservation-expiry" }, r.id, "expire");
        return true;
      }),
    { idField: "reservation_id", changedMeanwhile: refusedTransition },
  );
  if (expired > 0 || failed > 0) log().info({ expired, failed }, "margin reservations expired");
  return { expired, failed };
}

export async function lockReservation(tx: Tx, scope: Scope, id: string): Promise<MarginReservation> {
  await tx.$queryRaw`SELECT id FROM margin_reservations WHERE id = ${id} AND tenant_id = ${scope.tenantId} FOR UPDATE`;
  const row = await tx.marginReservation.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Margin reservation");
  return row;
}

export function isPastExpiry(row: Pick<MarginReservation, "expiresAt">, now = new Date()): boolean {
  return row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();
}

export async function applyReservationActionIn(
  tx: Tx,
  scope: Scope,
  actor: Actor,
  id: string,
  action: ReservationAction,
  data: { authorityReservationId?: string; expiresAt?: Date; refusal?: Refusal } = {},
): Promise<ReservationResponse> {
  const current = await tx.marginReservation.findFirst({ where: { id, ...where(scope) } });
  if (!current) throw notFound("Margin reservation");
  const from = current.status as ReservationStatus;
  const to = nextState(RESERVATION_TRANSITIONS, "margin reservation", from, action);
  const updated = await tx.marginReservation.updateMany({
    where: { id, ...where(scope), status: from },
    data: {
      status: to,
      ...(data.authorityReservationId !== undefined ? { authorityReservationId: data.authorityReservationId } : {}),
      ...(data.expiresAt !== undefined ? { expiresAt: data.expiresAt } : {}),
      ...(data.refusal !== undefined ? { refusal: data.refusal } : {}),
    },
  });
  if (updated.count !== 1) throw new DomainError("invalid_transition", "The reservation changed meanwhile; read it again", { current_status: from, action });
  const row = (await tx.marginReservation.findFirst({ where: { id, ...where(scope) } }))!;
  const body = toReservationResponse(row);
  await writeAudit(tx, { ...where(scope), actor, action: RESERVATION_AUDIT_ACTIONS[action], target: { type: "margin_reservation", id }, metadata: { from, to } });
  await writeOutboxEvent(tx, { ...where(scope), type: "margin_reservation.status_changed", payload: { ...body, previous_status: from } as unknown as Prisma.InputJsonObject });
  return body;
}

export function toReservationResponse(row: MarginReservation): ReservationResponse {
  return {
    id: row.id,
    object: "margin_reservation",
    status: row.status as ReservationStatus,
    customer_id: row.customerId,
    margin_query_id: row.marginQueryId,
    proposal_id: row.proposalId,
    kind: row.kind as ReservationResponse["kind"],
    installment_amount: Number(row.installmentAmount),
    term: row.term,
    authority_reservation_id: row.authorityReservationId,
    refusal: (row.refusal as Refusal | null) ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function sourceOf(stored: Record<string, string>): PayrollSource {
  return stored.type === "inss"
    ? { kind: "inss", benefitNumber: stored.benefit_number! }
    : { kind: "private", employerCnpj: stored.employer_cnpj!, registration: stored.registration! };
}

/** The authority's idempotency key: stable for one intent, opaque (no tenant ids leave the platform). */
export function authorityKey(scope: Scope, purpose: string, subject: string): string {
  return createHash("sha256").update(`${scope.tenantId}|${scope.environment}|${purpose}|${subject}`).digest("hex").slice(0, 32);
}
