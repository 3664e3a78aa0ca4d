import type { Prisma } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { z } from "zod";
import { toContractResponse } from "@/lib/contracts/serialize";
import { getCustomer } from "@/lib/customers/get-customer";
import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { notFound } from "@/lib/errors";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { toProposalResponse } from "@/lib/proposals/serialize";
import { where, type Scope } from "@/lib/scope";
import { recordCustomerAccess } from "./access-log";
import { CUSTOMER_ID, customerIdsMatching, documentIn } from "./customer-search";

// The panel's customers (issue 12): search by CPF/CNPJ or name, and each customer with their proposals and
// contracts, through the modules' own serializers.

/** A row of the customer list: what it shows, no more (the file has the rest — income, address, benefit number are
 *  not sent to every screen that lists names; LGPD art. 6 III). */
function toCustomerRow(row: { id: string; name: string; document: string; kind: string; createdAt: Date }) {
  return { id: row.id, name: row.name, document: row.document, kind: row.kind, created_at: row.createdAt.toISOString() };
}

export const CustomerListQuery = z.strictObject({
  environment: z.enum(["sandbox", "production"]).default("sandbox"),
  q: z.string().trim().max(100).optional().describe("A CPF/CNPJ (formatted or not), a customer id or part of the name"),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type CustomerListQuery = z.infer<typeof CustomerListQuery>;

export async function customerList(scope: Scope, query: CustomerListQuery) {
  const found = await search(scope, query.q);
  const filters: Prisma.CustomerWhereInput = { ...where(scope), ...found.filter };
  const after = decodeCursor(scope, query.cursor, "customer");
  const page = await paginate(query.limit, (args) => db().customer.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return { ...toListResponse(scope, page, toCustomerRow), search_capped: found.capped };
}

async function search(scope: Scope, q: string | undefined): Promise<{ filter: Prisma.CustomerWhereInput; capped: boolean }> {
  if (!q) return { filter: {}, capped: false };
  if (CUSTOMER_ID.test(q)) return { filter: { id: q }, capped: false };
  const document = documentIn(q);
  if (document) return { filter: { document }, capped: false };
  const { ids, capped } = await customerIdsMatching(scope, q); // accents and case ignored
  return { filter: { id: { in: ids } }, capped };
}

/** The customer file as a person opens it: read, then the access recorded (./access-log.ts). */
export async function openCustomerFile(scope: Scope, actor: Actor, id: string) {
  const file = await customerFile(scope, id);
  await recordCustomerAccess(scope, actor, file.customer.id, "customer_file", file.customer.id);
  return file;
}

/** How many proposals and contracts the customer file shows (the newest). */
export const FILE_ROWS = 100;

export async function customerFile(scope: Scope, id: string) {
  if (!CUSTOMER_ID.test(id)) throw notFound("Customer");
  const customer = await getCustomer(scope, id);
  // The latest FILE_ROWS of each, and whether there are more (the file then links to the lists, searched by the customer's
  // id): a customer with hundreds of sandbox proposals listed them all, or was cut off without a word.
  const [proposals, contracts] = await Promise.all([
    db().proposal.findMany({ where: { ...where(scope), customerId: id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: FILE_ROWS + 1 }),
    db().contract.findMany({ where: { ...where(scope), customerId: id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: FILE_ROWS + 1 }),
  ]);
  const shownProposals = proposals.slice(0, FILE_ROWS);
  // Each shown proposal's contract, whether or not that contract is among the shown ones.
  const issued = await db().contract.findMany({ where: { ...where(scope), proposalId: { in: shownProposals.map((p) => p.id) } }, select: { id: true, proposalId: true } });
  const contractByProposal = new Map(issued.map((c) => [c.proposalId, c.id]));
  return {
    customer,
    proposals: shownProposals.map((p) => toProposalResponse(p, contractByProposal.get(p.id) ?? null)),
    contracts: contracts.slice(0, FILE_ROWS).map(toContractResponse),
    more_proposals: proposals.length > FILE_ROWS,
    more_contracts: contracts.length > FILE_ROWS,
  };
}
