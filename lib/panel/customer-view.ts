import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { toContractResponse } from "@/lib/contracts/serialize";
import { getCustomer } from "@/lib/customers/get-customer";
import { toCustomerView } from "@/lib/customers/serialize";
import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { notFound } from "@/lib/errors";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { toProposalResponse } from "@/lib/proposals/serialize";
import { where, type Scope } from "@/lib/scope";
import { customerIdsMatching, documentIn } from "./customer-search";

// The panel's customers (issue 12): search by CPF/CNPJ or name, and each customer with their proposals and
// contracts, through the modules' own serializers.

const CUSTOMER_ID = /^cus_[0-9A-Z]{26}$/;

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
  return { ...toListResponse(scope, page, toCustomerView), search_capped: found.capped };
}

async function search(scope: Scope, q: string | undefined): Promise<{ filter: Prisma.CustomerWhereInput; capped: boolean }> {
  if (!q) return { filter: {}, capped: false };
  if (CUSTOMER_ID.test(q)) return { filter: { id: q }, capped: false };
  const document = documentIn(q);
  if (document) return { filter: { document }, capped: false };
  const { ids, capped } = await customerIdsMatching(scope, q); // accents and case ignored
  return { filter: { id: { in: ids } }, capped };
}

export async function customerFile(scope: Scope, id: string) {
  if (!CUSTOMER_ID.test(id)) throw notFound("Customer");
  const customer = await getCustomer(scope, id);
  const [proposals, contracts] = await Promise.all([
    db().proposal.findMany({ where: { ...where(scope), customerId: id }, orderBy: { createdAt: "desc" }, take: 200 }),
    db().contract.findMany({ where: { ...where(scope), customerId: id }, orderBy: { createdAt: "desc" }, take: 200 }),
  ]);
  const contractByProposal = new Map(contracts.map((c) => [c.proposalId, c.id]));
  return { customer, proposals: proposals.map((p) => toProposalResponse(p, contractByProposal.get(p.id) ?? null)), contracts: contracts.map(toContractResponse) };
}
