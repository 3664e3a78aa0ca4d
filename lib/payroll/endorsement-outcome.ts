import type { MarginReservation } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import type { Tx } from "@/lib/db/client";
import { applyProposalActionIn } from "@/lib/proposals/apply-action";
import { deductedInstallment, type ProposalTerms } from "@/lib/proposals/schemas";
import type { Scope } from "@/lib/scope";
import type { EndorseInput, EndorseResult } from "./authority/types";
import { applyEndorsementActionIn } from "./endorsement-transition";
import { applyReservationActionIn, authorityKey } from "./reservations";
import type { EndorsementResponse } from "./schemas";

// What an averbação's answer does, whoever learned it: the request that asked (./endorsements.ts), or the endorsement
// worker replaying the call of a request that died before it could record the answer (./endorsement-recovery.ts).
// Both call it in a transaction holding the proposal's row lock, with the endorsement still `submitted`.

/** The averbação call of a proposal: always the same request under the same idempotency key, however often it is made. */
export function endorseCall(scope: Scope, proposal: { id: string; terms: unknown }, reservation: Pick<MarginReservation, "authorityReservationId">, contractNumber: string): EndorseInput {
  const terms = proposal.terms as ProposalTerms;
  return {
    authorityReservationId: reservation.authorityReservationId!,
    contractNumber,
    principal: terms.principal,
    installmentAmount: deductedInstallment(terms),
    termMonths: terms.term,
    firstDueDate: terms.first_due_date,
    requestId: authorityKey(scope, "endorse", proposal.id),
  };
}

/**
 * Records the authority's answer on a `submitted` endorsement.
 * - Endorsed, for a proposal still signed: the reservation is consumed (also one the expiry job marked `expired`
 *   meanwhile — the authority registered the contract against it before it lapsed) and the contract may be issued.
 * - Endorsed, for a proposal that closed meanwhile (canceled or rejected while a lost call was being recovered):
 *   nobody will issue that contract, so the averbação is recorded and at once ended (`terminating`, reason
 *   `canceled`): the termination worker asks the authority to end it, or the paying source would deduct for nothing.
 * - Refused: the endorsement keeps the authority's reason; a proposal still signed is rejected with it (which releases
 *   its reservation), its reservation marked `expired` first when that was the reason.
 */
export async function settleEndorsement(
  tx: Tx,
  scope: Scope,
  actor: Actor,
  endorsementId: string,
  proposal: { id: string; status: string },
  reservation: MarginReservation,
  answer: EndorseResult,
): Promise<EndorsementResponse> {
  const signed = proposal.status === "signed";
  if (answer.status === "endorsed") {
    const recorded = { authorityEndorsementId: answer.authorityEndorsementId, endorsedAt: answer.endorsedAt, recoveryNextAttemptAt: null };
    if (signed && (reservation.status === "reserved" || reservation.status === "expired")) {
      await applyReservationActionIn(tx, scope, actor, reservation.id, "consume");
      return applyEndorsementActionIn(tx, scope, actor, endorsementId, "endorse", recorded);
    }
    await applyEndorsementActionIn(tx, scope, actor, endorsementId, "endorse", recorded);
    return applyEndorsementActionIn(tx, scope, actor, endorsementId, "end", { terminationReason: "canceled", terminationNextAttemptAt: new Date() });
  }
  const refused = await applyEndorsementActionIn(tx, scope, actor, endorsementId, "refuse", { refusal: answer.refusal, recoveryNextAttemptAt: null });
  if (!signed) return refused;
  if (answer.refusal.code === "reservation_expired" && reservation.status === "reserved") await applyReservationActionIn(tx, scope, actor, reservation.id, "expire");
  await applyProposalActionIn(tx, scope, actor, proposal.id, "refuse_endorsement", { reason: `Endorsement refused by the payroll authority: ${answer.refusal.code}` });
  return refused;
}
