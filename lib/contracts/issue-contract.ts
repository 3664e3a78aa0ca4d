import type { Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { db, type Tx } from "@/lib/db/client";
import { DomainError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { writeOutboxEvent } from "@/lib/outbox/outbox";
import { applyProposalActionIn } from "@/lib/proposals/apply-action";
import { where, type Scope } from "@/lib/scope";
import { dateColumn } from "@/lib/serialize";
import type { ContractResponse } from "./schemas";
import { toContractResponse } from "./serialize";

// POST /v1/contracts: a signed proposal becomes an active contract with its installments, in one
// transaction with the proposal's issue_contract transition, the audit rows and the outbox events.
// The contract keeps the proposal's frozen terms (rate, schedule, dates) exactly.

type ScheduleRow = { number: number; due_date: string; interest: number; amortization: number; payment: number };
type FrozenTerms = { principal: number; monthly_rate: string; term: number; disbursement_date: string; schedule: ScheduleRow[] };

async function nextContractNumber(tx: Tx, scope: Scope, year: string): Promise<string> {
  const rows = await tx.$queryRaw<{ value: number }[]>`
    INSERT INTO sequences (tenant_id, environment, name, value)
    VALUES (${scope.tenantId}, ${scope.environment}::"Environment", ${`contract-${year}`}, 1)
    ON CONFLICT (tenant_id, environment, name) DO UPDATE SET value = sequences.value + 1
    RETURNING value`;
  return `CCB-${year}-${String(rows[0]!.value).padStart(6, "0")}`;
}

export async function issueContract(scope: Scope, actor: Actor, proposalId: string): Promise<ContractResponse> {
  return db().$transaction(async (tx) => {
    const proposal = await tx.proposal.findFirst({ where: { id: proposalId, ...where(scope) } });
    if (!proposal) throw notFound("Proposal");
    if (await tx.contract.findFirst({ where: { proposalId, ...where(scope) }, select: { id: true } })) {
      throw new DomainError("invalid_transition", "A contract was already issued for this proposal", { current_status: proposal.status, action: "issue_contract" });
    }
    const contractId = newId("contract");
    await applyProposalActionIn(tx, scope, actor, proposalId, "issue_contract", { contractId });

    const terms = proposal.terms as unknown as FrozenTerms;
    const contract = await tx.contract.create({
      data: {
        id: contractId,
        ...where(scope),
        number: await nextContractNumber(tx, scope, terms.disbursement_date.slice(0, 4)),
        proposalId,
        customerId: proposal.customerId,
        status: "active",
        principal: BigInt(terms.principal),
        monthlyRate: terms.monthly_rate,
        term: terms.term,
        disbursementDate: dateColumn(terms.disbursement_date),
        terms: proposal.terms as Prisma.InputJsonObject,
      },
    });
    await tx.installment.createMany({
      data: terms.schedule.map((s) => ({
        id: newId("installment"),
        ...where(scope),
        contractId,
        number: s.number,
        dueDate: dateColumn(s.due_date),
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
  });
}
