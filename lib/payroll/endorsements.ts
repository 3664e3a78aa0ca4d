import type { Endorsement } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { nextContractNumber } from "@/lib/contracts/contract-number";
import { db, sideDb, type Tx } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { DomainError, invalidField, notFound, TransientConflict } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { checkDisbursementDate, disbursementDatePassed } from "@/lib/proposals/disbursement-date";
import type { ProposalTerms } from "@/lib/proposals/schemas";
import { where, type Scope } from "@/lib/scope";
import { authorityTransactionOptions, payrollAuthorityFor } from "./authority";
import type { EndorseResult } from "./authority/types";
import { endorseCall, settleEndorsement } from "./endorsement-outcome";
import { endorseAtAuthority } from "./endorsement-recovery";
import { toEndorsementResponse } from "./endorsement-transition";
import { isPastExpiry, lockReservation } from "./reservations";
import type { EndorsementResponse, ListEndorsementsQuery } from "./schemas";

export { toEndorsementResponse };

// Endorsement (averbação): the authority registers the signed proposal's contract against its reserved
// margin. Endorsed: the reservation is consumed and POST /v1/contracts may issue the contract under the
// endorsed contract number. Refused: the proposal is rejected with the authority's reason and its
// reservation released (or marked expired when that was the reason). One transaction; events for each
// (./endorsement-outcome.ts). Against a real authority the `submitted` row is committed before the call, so a
// request that dies after the authority answered leaves it for a retry or the worker (./endorsement-recovery.ts).

export async function createEndorsement(scope: Scope, actor: Actor, proposalId: string): Promise<EndorsementResponse> {
  await takeContractNumber(scope, proposalId);
  return db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM proposals WHERE id = ${proposalId} AND tenant_id = ${scope.tenantId} FOR UPDATE`;
    const proposal = await tx.proposal.findFirst({ where: { id: proposalId, ...where(scope) } });
    if (!proposal) throw notFound("Proposal");
    const terms = proposal.terms as ProposalTerms;
    if (PRODUCTS[terms.product as ProductCode]?.payrollLink == null) {
      throw invalidField("proposal_id", "Only payroll-deductible proposals (inss_payroll, private_payroll) are endorsed");
    }
    if (proposal.status !== "signed") {
      throw new DomainError("invalid_transition", `Only a signed proposal can be endorsed; this one is ${proposal.status}`, { current_status: proposal.status, action: "endorse" });
    }
    // Not for a contract that can no longer be issued (production, its disbursement date passed): the averbação would
    // take the borrower's margin for nothing.
    checkDisbursementDate(scope, terms.disbursement_date, "cancel the proposal, then simulate and propose again with today's date or later");
    const done = await tx.endorsement.findFirst({ where: { ...where(scope), proposalId, status: "endorsed" }, select: { id: true } });
    if (done) throw new DomainError("conflict", `The proposal was already endorsed (${done.id})`, { endorsement_id: done.id });
    // An earlier attempt whose request died after calling the authority: asked again under the same key, whatever
    // its reservation's state now (the authority may have endorsed before it lapsed).
    const earlier = await tx.endorsement.findFirst({ where: { ...where(scope), proposalId, status: "submitted" } });
    // Otherwise the latest reservation that held margin for it: reserved, or expired since (the job may have marked
    // it before this request came — either way the averbação is refused with reservation_expired, one outcome).
    const held = earlier ? null : await tx.marginReservation.findFirst({ where: { ...where(scope), proposalId, status: { in: ["reserved", "expired"] } }, orderBy: { createdAt: "desc" } });
    if (!earlier && !held) throw new DomainError("conflict", "The proposal has no reserved margin to endorse against");
    const reservation = await lockReservation(tx, scope, earlier?.reservationId ?? held!.id);
    // The number an earlier attempt sent the authority, under the same key (the same as the proposal's, taken once).
    const contractNumber = earlier?.contractNumber ?? proposal.contractNumber;
    if (!contractNumber) throw new TransientConflict("The proposal changed meanwhile; retry the endorsement");

    const row = { id: earlier?.id ?? newId("endorsement"), ...where(scope), proposalId, reservationId: reservation.id, contractNumber };
    let answer: EndorseResult;
    if (!earlier && (reservation.status === "expired" || isPastExpiry(reservation))) {
      await tx.endorsement.create({ data: { ...row, status: "submitted" } });
      answer = { status: "refused", refusal: { code: "reservation_expired", message: "The margin reservation expired before the endorsement" } };
    } else {
      answer = await endorseAtAuthority(tx, payrollAuthorityFor(scope.environment), row, earlier !== null, endorseCall(scope, proposal, reservation, contractNumber));
    }
    return settleEndorsement(tx, scope, actor, row.id, proposal, reservation, answer);
  }, authorityTransactionOptions());
}

/**
 * A signed payroll proposal's CCB number, taken once in a short transaction of its own: every attempt at its
 * averbação (a retry after a timeout included) sends the authority the same number under the same idempotency key,
 * and the tenant's number sequence is not locked while the authority answers (it would hold every contract issue
 * of the tenant behind it). Nothing is taken for a proposal that cannot be endorsed: the endorsement's own checks
 * answer for it. A number whose averbação is refused stays with that proposal (the CCB was signed under it).
 */
async function takeContractNumber(scope: Scope, proposalId: string): Promise<void> {
  // Committed now, even inside an idempotent request's transaction (which the authority's answer may roll back — the
  // number must not go back to the sequence while an averbação under it may exist); on the side pool, as that
  // transaction holds a connection of the main one (lib/db/client.ts).
  await sideDb().$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string; contract_number: string | null; product: string; disbursement_date: string }[]>`
      SELECT status, contract_number, terms->>'product' AS product, terms->>'disbursement_date' AS disbursement_date
        FROM proposals WHERE id = ${proposalId} AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" FOR UPDATE`;
    if (!row || row.contract_number || row.status !== "signed" || PRODUCTS[row.product as ProductCode]?.payrollLink == null) return;
    if (disbursementDatePassed(scope, row.disbursement_date)) return; // refused below: disbursement_date_passed
    const contractNumber = await nextContractNumber(tx, scope, row.disbursement_date.slice(0, 4));
    await tx.proposal.update({ where: { id: proposalId }, data: { contractNumber } });
  });
}

/** The endorsed endorsement a payroll contract is issued under, or null. */
export async function endorsedFor(tx: Tx, scope: Scope, proposalId: string): Promise<Endorsement | null> {
  return tx.endorsement.findFirst({ where: { ...where(scope), proposalId, status: "endorsed" } });
}

export async function getEndorsement(scope: Scope, id: string): Promise<EndorsementResponse> {
  const row = await db().endorsement.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Endorsement");
  return toEndorsementResponse(row);
}

export async function listEndorsements(scope: Scope, query: ListEndorsementsQuery) {
  const after = decodeCursor(scope, query.cursor, "endorsement");
  const filters = { ...where(scope), ...(query.status ? { status: query.status } : {}), ...(query.proposal_id ? { proposalId: query.proposal_id } : {}) };
  const page = await paginate(query.limit, (args) => db().endorsement.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, toEndorsementResponse);
}
