import type { Prisma, Proposal } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import type { Tx } from "@/lib/db/client";
import { db } from "@/lib/db/client";
import { afterAmbientTransaction } from "@/lib/db/transaction";
import { DomainError, notFound } from "@/lib/errors";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { authorityTransactionOptions } from "@/lib/payroll/authority";
import { requestTermination } from "@/lib/payroll/endorsement-termination";
import { heldReservationOf, releaseProposalReservations } from "@/lib/payroll/reservations";
import { where, type Scope } from "@/lib/scope";
import { nextState } from "@/lib/state-machine";
import { checkDisbursementDate } from "./disbursement-date";
import type { ProposalResponse } from "./schemas";
import { toProposalResponse } from "./serialize";
import { PROPOSAL_AUDIT_ACTIONS, PROPOSAL_TRANSITIONS, type ProposalAction, type ProposalStatus } from "./transitions";

const RELEASING: readonly ProposalStatus[] = ["canceled", "rejected", "expired"];
/** Actions that move a proposal forward: refused once its expires_at has passed, even before the job marks it. */
const FORWARD: readonly ProposalAction[] = ["submit", "approve", "sign", "issue_contract"];

// Applies one action of the transition table: status change, audit row and outbox event commit together.
// The update is conditional on the status read, so two racing actions cannot both apply (the loser gets 409).
export async function applyProposalActionIn(
  tx: Tx,
  scope: Scope,
  actor: Actor,
  id: string,
  action: ProposalAction,
  options: { reason?: string; contractId?: string; riskAssessmentId?: string; auditMetadata?: Prisma.InputJsonObject } = {},
): Promise<ProposalResponse> {
  const current = await tx.proposal.findFirst({ where: { id, ...where(scope) } });
  if (!current) throw notFound("Proposal");
  const from = current.status as ProposalStatus;
  const to = nextState(PROPOSAL_TRANSITIONS, "proposal", from, action);
  const reason = options.reason ?? (action === "expire" ? (from === "signed" ? "Expired before its contract was issued" : "Expired before signature") : undefined);
  if (FORWARD.includes(action)) checkForward(scope, current, action);
  // A payroll proposal goes on only while its margin is held at the authority: a reservation that expired (5 days
  // in the sandbox) or was released would have its averbação refused after the borrower signed.
  if ((action === "approve" || action === "sign") && current.marginQueryId !== null && !(await heldReservationOf(tx, scope, id))) {
    throw new DomainError("conflict", "The proposal's margin reservation is no longer held (expired or released): cancel it and start again from a new margin query", {
      action,
    });
  }
  const updated = await tx.proposal.updateMany({
    where: { id, ...where(scope), status: from },
    data: {
      status: to,
      ...(reason !== undefined ? { reason } : {}),
      ...(options.riskAssessmentId !== undefined ? { riskAssessmentId: options.riskAssessmentId } : {}),
    },
  });
  if (updated.count !== 1) {
    throw new DomainError("invalid_transition", "The proposal changed meanwhile; read it again", { current_status: from, action });
  }
  const row = (await tx.proposal.findFirst({ where: { id, ...where(scope) } }))!;
  await writeAudit(tx, {
    ...where(scope),
    actor,
    action: PROPOSAL_AUDIT_ACTIONS[action],
    target: { type: "proposal", id },
    metadata: { from, to, ...(reason ? { reason } : {}), ...options.auditMetadata },
  });
  // Leaving the open path (canceled, rejected, expired) releases the margin the proposal still holds; a signed payroll
  // proposal already endorsed and closed without a contract has its averbação ended at the authority (the worker frees
  // that margin), or the paying source would deduct installments of a loan never disbursed.
  if (RELEASING.includes(to)) await releaseProposalReservations(tx, scope, actor, id);
  if (from === "signed" && (action === "cancel" || action === "expire")) await requestTermination(tx, scope, actor, { proposalId: id, terms: row.terms }, "canceled");
  const body = toProposalResponse(row, options.contractId ?? null);
  await writeOutboxEvent(tx, { ...where(scope), type: "proposal.status_changed", payload: { ...body, previous_status: from } as unknown as Prisma.InputJsonObject });
  return body;
}

export function applyProposalAction(
  scope: Scope,
  actor: Actor,
  id: string,
  action: Exclude<ProposalAction, "issue_contract" | "expire">,
  options: { reason?: string } = {},
): Promise<ProposalResponse> {
  // cancel and reject may release a payroll reservation at the authority: its time budget applies.
  return expiringLapsed(scope, id, () => db().$transaction((tx) => applyProposalActionIn(tx, scope, actor, id, action, options), authorityTransactionOptions()));
}

/**
 * What every forward action checks first, before anything it would look at (a risk assessment, a margin query, an
 * endorsement), so that a lapsed proposal always answers the same 409 and is closed:
 * - the expiry job runs every few minutes: between expires_at and its run the proposal is stale all the same (its
 *   simulated terms, its margin query) — refused as the job would have left it (ProposalLapsed);
 * - a production proposal made before expiry was capped at its disbursement day (./disbursement-date.ts) may outlive it.
 */
export function checkForward(scope: Scope, current: Proposal, action: ProposalAction): void {
  if (current.expiresAt && current.expiresAt.getTime() <= Date.now()) throw new ProposalLapsed(current.expiresAt, action);
  checkDisbursementDate(scope, (current.terms as { disbursement_date: string }).disbursement_date, "cancel the proposal, then simulate and propose again with today's date or later");
}

/** A forward action on a proposal past its expires_at: 409 as if the job had already run (current_status expired). */
export class ProposalLapsed extends DomainError {
  constructor(expiresAt: Date, action: ProposalAction) {
    super("invalid_transition", `The proposal expired at ${expiresAt.toISOString()}`, { current_status: "expired", action, allowed_actions: [] });
  }
}

/** Runs `work`; when it finds the proposal lapsed, closes it as the expiry job would (its own transaction, once the
 *  refused action's has rolled back — an idempotent request's included) so that what the 409 says is what a GET then
 *  shows, and rethrows. */
export async function expiringLapsed<T>(scope: Scope, id: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ProposalLapsed) await afterAmbientTransaction(() => expireProposal(scope, id));
    throw err;
  }
}

/** Closes one open or signed proposal past its expires_at as `expired` (the expiry job's step); false when it changed meanwhile. */
export async function expireProposal(scope: Scope, id: string): Promise<boolean> {
  try {
    await db().$transaction(
      (tx) => applyProposalActionIn(tx, scope, EXPIRY_JOB, id, "expire"),
      authorityTransactionOptions(),
    );
    return true;
  } catch (err) {
    if (err instanceof DomainError && err.code === "invalid_transition") return false;
    throw err;
  }
}

const EXPIRY_JOB: Actor = { type: "system", label: "proposal-expiry" };
