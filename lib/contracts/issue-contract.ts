import type { Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { addMonths, scheduleNominalDates } from "@/lib/finance";
import { DomainError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { applyProposalActionIn, checkForward, expiringLapsed } from "@/lib/proposals/apply-action";
import { PROPOSAL_TRANSITIONS, type ProposalStatus } from "@/lib/proposals/transitions";
import { nextState } from "@/lib/state-machine";
import { endorsedFor } from "@/lib/payroll/endorsements";
import { PRODUCTS, type ProductCode } from "@/lib/products";
import { where, type Scope } from "@/lib/scope";
import { dateColumn } from "@/lib/serialize";
import type { ContractResponse } from "./schemas";
import { nextContractNumber } from "./contract-number";
import { frozenLateCharges } from "./late-rules";
import { toContractResponse } from "./serialize";

// POST /v1/contracts: a signed proposal becomes an active contract with its installments, in one
// transaction with the proposal's issue_contract transition, the audit rows and the outbox events.
// The contract keeps the proposal's frozen terms (rate, schedule, dates) exactly.

type ScheduleRow = { number: number; due_date: string; interest: number; amortization: number; payment: number };
type FrozenTerms = { product: string; principal: number; monthly_rate: string; term: number; disbursement_date: string; first_due_date?: string; schedule: ScheduleRow[] };

/** Each installment's nominal due date (before the due date rule moved it): what a payoff discounts it to. The terms keep
 *  the nominal first due date, but only the simulation's input says whether it was named (then the months count from
 *  it) or defaulted to one month after disbursement (then from the disbursement date: Jan 31 → Feb 28, Mar 31 …). The
 *  migration that added the column backfilled it by the same rule. */
async function nominalDueDatesOf(tx: Pick<Prisma.TransactionClient, "simulation">, scope: Scope, simulationId: string | null, terms: FrozenTerms): Promise<string[]> {
  const input = simulationId ? (await tx.simulation.findFirst({ where: { id: simulationId, ...where(scope) }, select: { input: true } }))?.input : undefined;
  const named = input !== undefined && input !== null && typeof input === "object" && "first_due_date" in input;
  const first = terms.first_due_date;
  const fromFirst = first !== undefined && (named || first !== addMonths(terms.disbursement_date, 1));
  return scheduleNominalDates(terms.disbursement_date, terms.schedule.length, fromFirst ? first : undefined);
}

export async function issueContract(scope: Scope, actor: Actor, proposalId: string): Promise<ContractResponse> {
  // A signed proposal past its expires_at is refused (409, current_status expired) and closed as the expiry job would.
  return expiringLapsed(scope, proposalId, () => db().$transaction(async (tx) => {
    const proposal = await tx.proposal.findFirst({ where: { id: proposalId, ...where(scope) } });
    if (!proposal) throw notFound("Proposal");
    if (await tx.contract.findFirst({ where: { proposalId, ...where(scope) }, select: { id: true } })) {
      throw new DomainError("invalid_transition", "A contract was already issued for this proposal", { current_status: proposal.status, action: "issue_contract" });
    }
    const terms = proposal.terms as unknown as FrozenTerms;
    // A signed proposal past its expires_at is refused (409) and closed. Production money is released today or later: a
    // contract dated before would start late (interest, due dates and the 7-day withdrawal window all run from a day the
    // borrower had no money) — 422. The sandbox issues back-dated contracts on purpose — that is how integrators test
    // late installments and collection. Such a signed proposal is canceled (POST /v1/proposals/{id}/cancel: a payroll
    // one's averbação is ended) and proposed again.
    nextState(PROPOSAL_TRANSITIONS, "proposal", proposal.status as ProposalStatus, "issue_contract"); // not signed: 409 first
    checkForward(scope, proposal, "issue_contract");
    // Payroll loans: issued only after the authority endorsed them, under the endorsed CCB number.
    let number: string | null = null;
    if (proposal.status === "signed" && PRODUCTS[terms.product as ProductCode]?.payrollLink != null) {
      const endorsement = await endorsedFor(tx, scope, proposalId);
      if (!endorsement) {
        throw new DomainError("endorsement_required", "A payroll proposal's contract is issued only after its endorsement (POST /v1/payroll/endorsements)", {
          current_status: proposal.status,
        });
      }
      number = endorsement.contractNumber;
    }
    const contractId = newId("contract");
    await applyProposalActionIn(tx, scope, actor, proposalId, "issue_contract", { contractId });

    const contract = await tx.contract.create({
      data: {
        id: contractId,
        ...where(scope),
        number: number ?? (await nextContractNumber(tx, scope, terms.disbursement_date.slice(0, 4))),
        proposalId,
        customerId: proposal.customerId,
        status: "active",
        principal: BigInt(terms.principal),
        monthlyRate: terms.monthly_rate,
        term: terms.term,
        disbursementDate: dateColumn(terms.disbursement_date),
        // The late charges signed for, frozen with the rest in the proposal (./late-rules.ts).
        terms: { ...(proposal.terms as Prisma.InputJsonObject), late_charges: frozenLateCharges(proposal.terms) },
        outstandingBalance: BigInt(terms.schedule.reduce((sum, s) => sum + s.payment, 0)),
      },
    });
    const nominal = await nominalDueDatesOf(tx, scope, proposal.simulationId, terms);
    await tx.installment.createMany({
      data: terms.schedule.map((s, k) => ({
        id: newId("installment"),
        ...where(scope),
        contractId,
        number: s.number,
        dueDate: dateColumn(s.due_date),
        nominalDueDate: dateColumn(nominal[k]!),
        principal: BigInt(s.amortization),
        interest: BigInt(s.interest),
        amount: BigInt(s.payment),
        status: "open",
      })),
    });
    await writeAudit(tx, { ...where(scope), actor, action: "contract.issued", target: { type: "contract", id: contractId }, metadata: { number: contract.number, proposal_id: proposalId } });
    const body = toContractResponse(contract);
    await writeOutboxEvent(tx, { ...where(scope), type: "contract.issued", payload: body });
    return body;
  }));
}
