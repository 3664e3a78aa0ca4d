import { decodeCursor, toListResponse } from "@/lib/pagination";
import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { notFound } from "@/lib/errors";
import { where, type Scope } from "@/lib/scope";
import type { z } from "zod";
import type { ListProposalsQuery, ProposalResponse } from "./schemas";
import { toProposalResponse } from "./serialize";
import type { ProposalStatus } from "./transitions";

export async function getProposal(scope: Scope, id: string): Promise<ProposalResponse> {
  const row = await db().proposal.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Proposal");
  const contract = await db().contract.findFirst({ where: { proposalId: id, ...where(scope) }, select: { id: true } });
  return toProposalResponse(row, contract?.id ?? null);
}

export async function listProposals(scope: Scope, query: z.infer<typeof ListProposalsQuery>) {
  const after = decodeCursor(scope, query.cursor, "proposal");
  const filters = {
    ...where(scope),
    ...(query.status ? { status: query.status as ProposalStatus } : {}),
    ...(query.customer_id ? { customerId: query.customer_id } : {}),
  };
  const page = await paginate(query.limit, (args) => db().proposal.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  // The contracts of the page's issued proposals, in one read: a list item carries its contract_id as GET does.
  const issued = page.items.filter((row) => row.status === "contract_issued").map((row) => row.id);
  const contracts = issued.length ? await db().contract.findMany({ where: { ...where(scope), proposalId: { in: issued } }, select: { id: true, proposalId: true } }) : [];
  const contractOf = new Map(contracts.map((c) => [c.proposalId, c.id]));
  return toListResponse(scope, page, (row) => toProposalResponse(row, contractOf.get(row.id) ?? null));
}
