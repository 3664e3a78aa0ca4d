import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { toAssignmentResponse } from "@/lib/assignments/serialize";
import type { Actor } from "@/lib/audit/audit-log";
import { todayInBrazil } from "@/lib/clock";
import { toRefundResponse } from "@/lib/collection/refunds";
import { toChargeResponse, toPaymentResponse } from "@/lib/collection/serialize";
import { getContract } from "@/lib/contracts/queries";
import { toContractResponse } from "@/lib/contracts/serialize";
import { COLLECTIBLE, CONTRACT_STATUSES, type ContractStatus } from "@/lib/contracts/transitions";
import { getCustomer } from "@/lib/customers/get-customer";
import { queryRows, sql } from "@/lib/db/sql";
import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { DomainError, notFound } from "@/lib/errors";
import { toInstallmentResponse } from "@/lib/installments/serialize";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import { centavos, dateColumn } from "@/lib/serialize";
import { getPayoffQuote } from "@/lib/settlements/payoff-quote";
import { toSettlementResponse } from "@/lib/settlements/serialize";
import { recordCustomerAccess } from "./access-log";
import { customerIdsMatching, customerSummaries } from "./customer-search";
import { latestLateDueDate } from "@/lib/finance";

// The panel's contracts (issue 12): a searchable list and each contract's file — terms, installments with what is
// due today, charges (boleto line, Pix copy-and-paste and QR), payments and their allocation, settlements and
// today's payoff quote, the assignment, and the timeline of its events — read through the modules' own
// serializers, so the panel shows what the API answers.

const CONTRACT_ID = /^ctr_[0-9A-Z]{26}$/;

export const ContractListQuery = z.strictObject({
  environment: z.enum(["sandbox", "production"]).default("sandbox"),
  // `overdue`: active contracts with an installment unpaid after its due date (the dashboard's late contracts).
  status: z.enum([...CONTRACT_STATUSES, "overdue"]).optional(),
  q: z.string().trim().max(100).optional().describe("A contract number (CCB-…), a contract id, a CPF/CNPJ or part of the customer's name"),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type ContractListQuery = z.infer<typeof ContractListQuery>;

export async function contractList(scope: Scope, query: ContractListQuery) {
  const today = todayInBrazil();
  const late = { some: { status: { in: ["open", "partially_paid"] }, dueDate: { lte: dateColumn(latestLateDueDate(today)) } } };
  const status: Prisma.ContractWhereInput = query.status === "overdue" ? { status: "active", installments: late } : query.status ? { status: query.status } : {};
  const found = await search(scope, query.q);
  const filters: Prisma.ContractWhereInput = { ...where(scope), ...status, ...found.filter };
  const after = decodeCursor(scope, query.cursor, "contract");
  const page = await paginate(query.limit, (args) => db().contract.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  const customerOf = await customerSummaries(scope, page.items.map((c) => c.customerId));
  const lateSince = await overdueSince(scope, page.items.map((c) => c.id), today);
  const list = toListResponse(scope, page, (row) => ({ ...toContractResponse(row), customer: customerOf(row.customerId), overdue_since: lateSince.get(row.id) ?? null }));
  return { ...list, search_capped: found.capped };
}

/** For each of these contracts with an installment unpaid after its due date: the oldest such due date (one query). */
async function overdueSince(scope: Scope, ids: string[], today: string): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ contract_id: string; since: string }>(sql`
    SELECT contract_id, min(due_date)::text AS since FROM installments
     WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" AND contract_id = ANY(${ids}::text[])
       AND status IN ('open', 'partially_paid') AND due_date <= ${latestLateDueDate(today)}::date
     GROUP BY contract_id`);
  return new Map(rows.map((r) => [r.contract_id, r.since]));
}

async function search(scope: Scope, q: string | undefined): Promise<{ filter: Prisma.ContractWhereInput; capped: boolean }> {
  if (!q) return { filter: {}, capped: false };
  if (CONTRACT_ID.test(q)) return { filter: { id: q }, capped: false };
  if (/^CCB-/i.test(q)) return { filter: { number: q.toUpperCase() }, capped: false };
  const { ids, capped } = await customerIdsMatching(scope, q);
  return { filter: { customerId: { in: ids } }, capped };
}

/** The timeline shows a contract's latest events, oldest of them first. */
const TIMELINE_LIMIT = 500;

/** The contract file as a person opens it: read, then the access to its customer's data recorded (./access-log.ts). */
export async function openContractFile(scope: Scope, actor: Actor, id: string) {
  const file = await contractFile(scope, id);
  await recordCustomerAccess(scope, actor, file.customer.id, "contract", id);
  return file;
}

export async function contractFile(scope: Scope, id: string) {
  if (!CONTRACT_ID.test(id)) throw notFound("Contract");
  const contract = await getContract(scope, id);
  const today = todayInBrazil();
  const [customer, installments, charges, payments, settlements, refunds, assignment, events] = await Promise.all([
    getCustomer(scope, contract.customer_id),
    db().installment.findMany({ where: { contractId: id, ...where(scope) }, include: { contract: { select: { terms: true } } }, orderBy: { number: "asc" } }),
    db().charge.findMany({ where: { contractId: id, ...where(scope) }, orderBy: { createdAt: "desc" } }),
    db().payment.findMany({ where: { contractId: id, ...where(scope) }, orderBy: { createdAt: "desc" } }),
    db().settlement.findMany({ where: { contractId: id, ...where(scope) }, orderBy: { createdAt: "desc" } }),
    db().refund.findMany({ where: { contractId: id, ...where(scope) }, orderBy: { createdAt: "desc" } }),
    contract.assignment_id ? db().assignment.findFirst({ where: { id: contract.assignment_id, ...where(scope) } }) : null,
    // The latest TIMELINE_LIMIT events about this contract: its own, and those of its installments, charges, payments
    // and settlements (each branch read from its own partial index, migration 20261127090000).
    queryRows<{ id: string; type: string; created_at: Date }>(sql`
      SELECT id, type, created_at FROM outbox_events
       WHERE tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment"
         AND ((type LIKE 'contract.%' AND payload->>'id' = ${id}) OR payload->>'contract_id' = ${id})
       ORDER BY created_at DESC, id DESC LIMIT ${TIMELINE_LIMIT}`),
  ]);
  const quote = COLLECTIBLE.includes(contract.status as ContractStatus)
    ? await getPayoffQuote(scope, id, {}).catch((err: unknown) => (err instanceof DomainError ? { unavailable: err.message } : Promise.reject(err)))
    : null;
  return {
    contract,
    customer,
    // Besides the API's fields: the late fine and interest received on each (the face paid is `paid_amount`).
    installments: installments.map((row) => ({ ...toInstallmentResponse(row, today), late_charges_paid: centavos(row.finePaid) + centavos(row.lateInterestPaid) })),
    charges: charges.map(toChargeResponse),
    payments: payments.map(toPaymentResponse),
    settlements: settlements.map(toSettlementResponse),
    refunds: refunds.map(toRefundResponse),
    payoff_quote: quote,
    assignment: assignment ? toAssignmentResponse(assignment, await db().assignmentContract.findMany({ where: { assignmentId: assignment.id } })) : null,
    timeline: events.reverse().map((e) => ({ id: e.id, type: e.type, at: new Date(e.created_at).toISOString() })),
    timeline_truncated: events.length === TIMELINE_LIMIT,
  };
}
