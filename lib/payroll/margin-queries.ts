import type { Customer, MarginQuery, Prisma } from "@prisma/client";
import { compactDocument } from "@/lib/customers/document";
import type { PayrollInput } from "@/lib/customers/schemas";
import { db, type Tx } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { queryRows, sql } from "@/lib/db/sql";
import { DomainError, invalidField, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { parseCnpj } from "@/lib/customers/document";
import { where, type Scope } from "@/lib/scope";
import { payrollAuthorityFor } from "./authority";
import { MarginQueryRefused, type MarginQueryResult, type PayrollSource } from "./authority/types";
import type { CreateMarginQueryBody, ListMarginQueriesQuery, MarginQueryResponse } from "./schemas";
import { HOLDING_STATUSES } from "./transitions";

// Margin queries: ask the authority (the sandbox simulator or the real one) for a customer's payroll
// margin and keep its answer. The stored answer backs proposals and reservations until `valid_until`.

/** The authority's answer as stored (snake_case JSON, the API's own field names). */
type StoredResult = Omit<MarginQueryResponse, "id" | "object" | "customer_id" | "source" | "authority" | "available_loan_margin" | "status" | "environment" | "created_at" | "valid_until">;

export async function createMarginQuery(scope: Scope, body: CreateMarginQueryBody): Promise<MarginQueryResponse> {
  // The authority is asked before anything is written (a query reserves nothing): no lock is held while it
  // answers, and no connection either outside an idempotent request (inside one, the request's transaction keeps
  // its connection throughout, as every write of such a request does). The row and its event are then written by one statement (atomic on its own, and
  // inside an idempotent request's transaction when there is one). Plain SQL on this hot path (lib/db/sql.ts):
  // Prisma's query building cost ~7 ms of CPU per request here (bench/margin-query-cost.ts).
  const [customer] = await queryRows<Pick<Customer, "id" | "kind" | "document" | "payroll">>(sql`
    SELECT id, kind, document, payroll FROM customers
     WHERE id = ${body.customer_id} AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment"`);
  if (!customer) throw notFound("Customer");
  if (customer.kind !== "person") throw invalidField("customer_id", "Payroll margin exists only for persons (a CPF)");
  const link = body.source ?? (customer.payroll as PayrollInput | null);
  if (!link) throw new DomainError("payroll_link_required", "The customer has no payroll link: send `source` or set the customer's `payroll`");
  // A `source` sent here is checked as the customer's own `payroll` is (check digits of the employer's CNPJ: 400).
  const employerCnpj = (cnpj: string) => (body.source ? parseCnpj(cnpj, "source.employer_cnpj") : compactDocument(cnpj));
  const source: PayrollSource =
    link.type === "inss" ? { kind: "inss", benefitNumber: link.benefit_number } : { kind: "private", employerCnpj: employerCnpj(link.employer_cnpj), registration: link.registration };
  const id = newId("marginQuery");
  const authority = payrollAuthorityFor(scope.environment);
  // Dated when asked, not when answered: a reservation made while the question was out may be missing from the
  // answer, and only one made after created_at counts as held against it (heldByQuery) — dated at the answer, such a
  // reservation counted nowhere, the local check passed and the authority refused.
  const askedAt = new Date();
  const answer = await authority.queryMargin({ document: customer.document, source, requestId: id }).catch((err: unknown) => {
    if (!(err instanceof MarginQueryRefused)) throw err;
    throw new DomainError("margin_query_refused", `The payroll authority refused the margin query: ${err.refusal.message}`, { refusal: err.refusal });
  });
  const row: MarginQuery = {
    id,
    ...where(scope),
    customerId: customer.id,
    sourceKind: source.kind,
    source: sourceView(source),
    authority: authority.name,
    authorityQueryId: answer.authorityQueryId,
    result: storedResult(answer) as unknown as Prisma.JsonObject,
    availableLoanMargin: BigInt(answer.margins.find((m) => m.kind === "loan")?.available ?? 0),
    validUntil: answer.validUntil,
    createdAt: askedAt,
  };
  // A stateless authority's answer ignores what this platform already holds on the source: shown taken off.
  const held = STATELESS_AUTHORITIES.includes(authority.name) ? await heldOnSource(scope, customer.id, sourceView(source)) : NONE_HELD;
  const response = toMarginQueryResponse(row, held);
  // Only while the customer exists, held until this commits: an erasure at the same moment waits for the query and
  // erases it too, or came first (404; what the authority answered is not kept).
  const stored = await queryRows<{ id: string }>(sql`
    WITH query AS (
      INSERT INTO margin_queries (id, tenant_id, environment, customer_id, source_kind, source, authority, authority_query_id, result, available_loan_margin, valid_until, created_at)
      SELECT ${row.id}, ${row.tenantId}, ${row.environment}::"Environment", ${row.customerId}, ${row.sourceKind}, ${JSON.stringify(row.source)}::jsonb, ${row.authority},
             ${row.authorityQueryId}, ${JSON.stringify(row.result)}::jsonb, ${row.availableLoanMargin}, ${row.validUntil}, ${row.createdAt}
       WHERE EXISTS (SELECT 1 FROM customers WHERE id = ${row.customerId} AND tenant_id = ${row.tenantId} AND environment = ${row.environment}::"Environment" FOR KEY SHARE)
      RETURNING id
    )
    INSERT INTO outbox_events (id, tenant_id, environment, type, payload)
    SELECT ${newId("event")}, ${row.tenantId}, ${row.environment}::"Environment", 'margin_query.completed', ${JSON.stringify(response)}::jsonb FROM query
    RETURNING id`);
  if (stored.length === 0) throw notFound("Customer");
  return response;
}

export async function getMarginQuery(scope: Scope, id: string): Promise<MarginQueryResponse> {
  const row = await db().marginQuery.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Margin query");
  return toMarginQueryResponse(row, await heldByKind(db(), scope, id));
}

export async function listMarginQueries(scope: Scope, query: ListMarginQueriesQuery) {
  const after = decodeCursor(scope, query.cursor, "marginQuery");
  const filters = { ...where(scope), ...(query.customer_id ? { customerId: query.customer_id } : {}) };
  const page = await paginate(query.limit, (args) => db().marginQuery.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  const held = await heldByQuery(scope, page.items.map((r) => r.id));
  return toListResponse(scope, page, (row) => toMarginQueryResponse(row, held.get(row.id) ?? NONE_HELD));
}

/**
 * The margin query behind a payroll installment, checked for use now: the customer's, on the source type the
 * product deducts from (`sourceType`: an INSS benefit for inss_payroll, an employment link for private_payroll),
 * still valid, the source able to take deductions, and the available margin (after this platform's holding
 * reservations on the same source: see heldByQuery) covering the installment. Holds a lock per customer so two
 * submissions — from the same query or from two — cannot both spend the same margin.
 */
export async function requireUsableMargin(
  tx: Tx,
  scope: Scope,
  marginQueryId: string,
  customerId: string,
  installmentAmount: number,
  kind: MarginKind = "loan",
  param = "margin_query_id",
  sourceType?: "inss" | "private",
): Promise<MarginQuery> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`margin:${scope.tenantId}:${scope.environment}:${customerId}`}, 0))`;
  const row = await tx.marginQuery.findFirst({ where: { id: marginQueryId, ...where(scope) } });
  if (!row) throw notFound("Margin query");
  if (row.customerId !== customerId) throw invalidField(param, "The margin query belongs to another customer");
  if (sourceType !== undefined && row.sourceKind !== sourceType) {
    throw invalidField(param, sourceType === "inss" ? "The product deducts from an INSS benefit: query the margin of one" : "The product deducts from a salary: query the margin of the employment link");
  }
  if (row.validUntil.getTime() <= Date.now()) {
    throw new DomainError("margin_query_expired", `The margin query expired at ${row.validUntil.toISOString()}; query the margin again`, { margin_query_id: row.id });
  }
  const result = row.result as unknown as StoredResult;
  if (result.source_status !== "active" || result.blocks.some((b) => b.code === "blocked_for_loans")) {
    throw new DomainError("payroll_source_unavailable", "The benefit or employment link cannot take new loan deductions", {
      source_status: result.source_status,
      blocks: result.blocks,
    });
  }
  // Each kind against its own margin (loan 35%, credit card 5%, benefit card 5% of the base), less this
  // platform's holding reservations of that kind on the source that the answer does not reflect.
  const held = (await heldByKind(tx, scope, row.id))[kind];
  const available = kind === "loan" ? Number(row.availableLoanMargin) - held : (result.margins.find((m) => m.kind === kind)?.available ?? 0) - held;
  if (installmentAmount > available) {
    const name = kind === "loan" ? "loan" : kind === "credit_card" ? "credit card (RMC)" : "benefit card (RCC)";
    throw new DomainError("insufficient_margin", `The installment (${installmentAmount} centavos) is above the available ${name} margin (${available} centavos)`, {
      kind,
      [kind === "loan" ? "available_loan_margin" : "available_margin"]: available,
      installment_amount: installmentAmount,
    });
  }
  return row;
}

/**
 * What the scorecard reads from a margin query (lib/risk): the loan margin still available to the assessed proposal —
 * what it holds itself (its own reservation, made when it was submitted) is not counted against it. A query of another
 * paying source is 400; one past its `valid_until` is 422 `margin_query_expired` (an old answer says nothing about the
 * margin today: assess with a new query).
 */
export async function marginForRisk(tx: Tx, scope: Scope, marginQueryId: string, customerId: string, sourceType: "inss" | "private", proposalId: string | null = null, now = new Date()) {
  const row = await tx.marginQuery.findFirst({ where: { id: marginQueryId, ...where(scope) } });
  if (!row) throw notFound("Margin query");
  if (row.customerId !== customerId) throw invalidField("margin_query_id", "The margin query belongs to another customer");
  if (row.sourceKind !== sourceType) throw invalidField("margin_query_id", sourceType === "inss" ? "The product deducts from an INSS benefit: give a margin query of one" : "The product deducts from a salary: give a margin query of the employment link");
  if (row.validUntil.getTime() <= now.getTime()) {
    throw new DomainError("margin_query_expired", `The margin query expired at ${row.validUntil.toISOString()}; assess with a new one`, { margin_query_id: row.id });
  }
  const result = row.result as unknown as StoredResult;
  return {
    available_loan_margin: Math.max(0, Number(row.availableLoanMargin) - (await heldByKind(tx, scope, row.id, proposalId)).loan),
    source_status: result.source_status,
    blocked_for_loans: result.blocks.some((b) => b.code === "blocked_for_loans"),
  };
}

type MarginKind = "loan" | "credit_card" | "benefit_card";
type Held = Record<MarginKind, number>;
const NONE_HELD: Held = { loan: 0, credit_card: 0, benefit_card: 0 };

/** What this platform holds against one query's answer, per kind of margin (see heldByQuery). */
async function heldByKind(client: Tx, scope: Scope, marginQueryId: string, exceptProposalId: string | null = null): Promise<Held> {
  return (await heldByQuery(scope, [marginQueryId], client, exceptProposalId)).get(marginQueryId) ?? NONE_HELD;
}

/** Authorities whose answers never reflect reservations (the sandbox's simulator keeps no state). */
const STATELESS_AUTHORITIES = ["sandbox_simulator"];

/**
 * Per query, the holding reservations (requested, reserved, consumed) its answer does not already reflect, per
 * kind: every one on the same customer and source — whichever query it was made from — made after the answer
 * came (the authority counted those made before in `reserved`/`used`), or any at all when the authority keeps no
 * state. So a second query of the same benefit cannot spend again what the first one's reservation holds.
 */
async function heldByQuery(scope: Scope, ids: string[], client: Pick<Tx, "$queryRaw"> = db(), exceptProposalId: string | null = null): Promise<Map<string, Held>> {
  if (ids.length === 0) return new Map();
  const rows = await client.$queryRaw<{ query_id: string; kind: MarginKind; held: bigint }[]>`
    SELECT q.id AS query_id, r.kind, SUM(r.installment_amount)::bigint AS held
      FROM margin_queries q
      JOIN margin_queries s ON s.tenant_id = q.tenant_id AND s.environment = q.environment AND s.customer_id = q.customer_id AND s.source = q.source
      JOIN margin_reservations r ON r.tenant_id = s.tenant_id AND r.environment = s.environment AND r.margin_query_id = s.id
     WHERE q.id = ANY(${ids}) AND q.tenant_id = ${scope.tenantId} AND q.environment = ${scope.environment}::"Environment"
       AND r.status = ANY(${[...HOLDING_STATUSES]})
       AND (${exceptProposalId}::text IS NULL OR r.proposal_id IS DISTINCT FROM ${exceptProposalId}::text)
       AND (r.margin_query_id = q.id OR r.created_at > q.created_at OR q.authority = ANY(${STATELESS_AUTHORITIES}))
     GROUP BY q.id, r.kind`;
  const held = new Map<string, Held>();
  for (const row of rows) {
    const entry = held.get(row.query_id) ?? { ...NONE_HELD };
    entry[row.kind] += Number(row.held);
    held.set(row.query_id, entry);
  }
  return held;
}

/** This platform's holding reservations on a customer's source, from any query, per kind. */
async function heldOnSource(scope: Scope, customerId: string, source: Prisma.JsonObject): Promise<Held> {
  const rows = await queryRows<{ kind: MarginKind; held: bigint }>(sql`
    SELECT r.kind, SUM(r.installment_amount)::bigint AS held
      FROM margin_reservations r
      JOIN margin_queries s ON s.id = r.margin_query_id AND s.tenant_id = r.tenant_id AND s.environment = r.environment
     WHERE r.tenant_id = ${scope.tenantId} AND r.environment = ${scope.environment}::"Environment" AND s.customer_id = ${customerId}
       AND s.source = ${JSON.stringify(source)}::jsonb AND r.status = ANY(${[...HOLDING_STATUSES]})
     GROUP BY r.kind`);
  const held = { ...NONE_HELD };
  for (const row of rows) held[row.kind] += Number(row.held);
  return held;
}

function storedResult(answer: MarginQueryResult): StoredResult {
  return {
    authority_query_id: answer.authorityQueryId,
    margin_base: answer.marginBase,
    margins: answer.margins.map((m) => ({ kind: m.kind, share: m.share, total: m.total, used: m.used, reserved: m.reserved, available: m.available })),
    source_type: answer.sourceType,
    source_status: answer.sourceStatus,
    blocks: answer.blocks,
    paying_institution: answer.payingInstitution,
    existing_loans: answer.existingLoans.map((l) => ({
      lender: l.lender,
      contract_number: l.contractNumber,
      installment_amount: l.installmentAmount,
      remaining_installments: l.remainingInstallments,
    })),
  };
}

function sourceView(source: PayrollSource): Prisma.JsonObject {
  return source.kind === "inss" ? { type: "inss", benefit_number: source.benefitNumber } : { type: "private", employer_cnpj: source.employerCnpj, registration: source.registration };
}

/** `held`: this platform's holding reservations from the query, per kind, shown as reserved. */
export function toMarginQueryResponse(row: MarginQuery, held: Held): MarginQueryResponse {
  const r = row.result as unknown as StoredResult;
  return {
    id: row.id,
    object: "margin_query",
    customer_id: row.customerId,
    source: row.source as MarginQueryResponse["source"],
    authority: row.authority as MarginQueryResponse["authority"],
    authority_query_id: row.authorityQueryId,
    margin_base: r.margin_base,
    margins: r.margins.map((m) => ({ ...m, reserved: m.reserved + held[m.kind], available: m.available - held[m.kind] })),
    available_loan_margin: Number(row.availableLoanMargin) - held.loan,
    source_type: r.source_type,
    source_status: r.source_status,
    blocks: r.blocks,
    paying_institution: r.paying_institution,
    existing_loans: r.existing_loans,
    valid_until: row.validUntil.toISOString(),
    status: row.validUntil.getTime() > Date.now() ? "valid" : "expired",
    environment: row.environment,
    created_at: row.createdAt.toISOString(),
  };
}
