import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { notFound } from "@/lib/errors";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import type { z } from "zod";
import type { ContractResponse, ListContractsQuery } from "./schemas";
import { toContractResponse } from "./serialize";

export async function getContract(scope: Scope, id: string): Promise<ContractResponse> {
  const row = await db().contract.findFirst({ where: { id, ...where(scope) } });
  if (!row) throw notFound("Contract");
  return toContractResponse(row);
}

export async function listContracts(scope: Scope, query: z.infer<typeof ListContractsQuery>) {
  const after = decodeCursor(scope, query.cursor, "contract");
  const filters = {
    ...where(scope),
    ...(query.status ? { status: query.status } : {}),
    ...(query.customer_id ? { customerId: query.customer_id } : {}),
  };
  const page = await paginate(query.limit, (args) => db().contract.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  return toListResponse(scope, page, toContractResponse);
}
