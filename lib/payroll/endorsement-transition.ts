import type { Endorsement, Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import type { Tx } from "@/lib/db/client";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { where, type Scope } from "@/lib/scope";
import { nextState } from "@/lib/state-machine";
import type { Refusal } from "./authority/types";
import type { EndorsementResponse } from "./schemas";
import { ENDORSEMENT_AUDIT_ACTIONS, ENDORSEMENT_TRANSITIONS, type EndorsementAction, type EndorsementStatus } from "./transitions";

// An endorsement's transitions and its response, apart from the endorsement flow (./endorsements.ts, which drives a
// proposal) so that the proposal's own actions can end an averbação (./endorsement-termination.ts) without the two
// modules importing each other.

/** One transition of the table, with its audit row and `endorsement.status_changed`; `data` is stored with it. */
export async function applyEndorsementActionIn(
  tx: Tx,
  scope: Scope,
  actor: Actor,
  id: string,
  action: EndorsementAction,
  data: { authorityEndorsementId?: string; endorsedAt?: Date; refusal?: Refusal } & Omit<Prisma.EndorsementUpdateInput, "status" | "refusal"> = {},
): Promise<EndorsementResponse> {
  const current = (await tx.endorsement.findFirst({ where: { id, ...where(scope) } }))!;
  const to = nextState(ENDORSEMENT_TRANSITIONS, "endorsement", current.status as EndorsementStatus, action);
  const { refusal, ...rest } = data;
  const row = await tx.endorsement.update({ where: { id }, data: { ...rest, status: to, ...(refusal ? { refusal } : {}) } });
  const body = toEndorsementResponse(row);
  await writeAudit(tx, { ...where(scope), actor, action: ENDORSEMENT_AUDIT_ACTIONS[action], target: { type: "endorsement", id }, metadata: { proposal_id: row.proposalId } });
  await writeOutboxEvent(tx, { ...where(scope), type: "endorsement.status_changed", payload: { ...body, previous_status: current.status } as unknown as Prisma.InputJsonObject });
  return body;
}

export function toEndorsementResponse(row: Endorsement): EndorsementResponse {
  return {
    id: row.id,
    object: "endorsement",
    status: row.status as EndorsementStatus,
    proposal_id: row.proposalId,
    reservation_id: row.reservationId,
    contract_number: row.contractNumber,
    authority_endorsement_id: row.authorityEndorsementId,
    refusal: (row.refusal as Refusal | null) ?? null,
    endorsed_at: row.endorsedAt?.toISOString() ?? null,
    termination: row.terminationReason
      ? { reason: row.terminationReason as "settled" | "canceled", attempts: row.terminationAttempts, last_error: row.terminationLastError, terminated_at: row.terminatedAt?.toISOString() ?? null }
      : null,
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
