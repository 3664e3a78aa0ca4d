import type { Prisma } from "@prisma/client";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { keysetWhere, paginate, type Keyset } from "@/lib/db/paginate";
import { notFound } from "@/lib/errors";
import { latestLateDueDate } from "@/lib/finance";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import { dateColumn } from "@/lib/serialize";
import type { z } from "zod";
import type { InstallmentResponse, ListInstallmentsQuery } from "./schemas";
import { toInstallmentResponse } from "./serialize";

// Installments are listed by due date, earliest first (then id): the order a schedule is read in.
const BY_DUE_DATE: Keyset = { field: "dueDate", direction: "asc" };

type ListQuery = z.infer<typeof ListInstallmentsQuery>;

/** The stored-status filter that matches a status as of a date (overdue is derived from the due date: due by the
 *  business day before it, lib/finance/late-charges.ts). */
function statusFilter(status: ListQuery["status"], asOf: string): Prisma.InstallmentWhereInput {
  const lateThrough = dateColumn(latestLateDueDate(asOf));
  switch (status) {
    case undefined:
      return {};
    case "overdue":
      return { status: { in: ["open", "partially_paid"] }, dueDate: { lte: lateThrough } };
    case "open":
    case "partially_paid":
      return { status, dueDate: { gt: lateThrough } };
    default:
      return { status };
  }
}

export async function listInstallments(scope: Scope, query: ListQuery) {
  const asOf = query.as_of ?? todayInBrazil();
  if (query.contract_id && !(await db().contract.findFirst({ where: { id: query.contract_id, ...where(scope) }, select: { id: true } }))) {
    throw notFound("Contract");
  }
  const after = decodeCursor(scope, query.cursor, "installment");
  const dueDate: Prisma.DateTimeFilter = {
    ...(query.due_from ? { gte: dateColumn(query.due_from) } : {}),
    ...(query.due_to ? { lte: dateColumn(query.due_to) } : {}),
  };
  const filters: Prisma.InstallmentWhereInput = {
    ...where(scope),
    ...(query.contract_id ? { contractId: query.contract_id } : {}),
    AND: [statusFilter(query.status, asOf), query.due_from || query.due_to ? { dueDate } : {}, keysetWhere(after, BY_DUE_DATE)],
  };
  const page = await paginate(
    query.limit,
    (args) => db().installment.findMany({ where: filters, include: { contract: { select: { terms: true } } }, ...args }),
    BY_DUE_DATE,
  );
  return toListResponse(scope, page, (row) => toInstallmentResponse(row, asOf), BY_DUE_DATE);
}

export async function getInstallment(scope: Scope, id: string, asOf = todayInBrazil()): Promise<InstallmentResponse> {
  const row = await db().installment.findFirst({ where: { id, ...where(scope) }, include: { contract: { select: { terms: true } } } });
  if (!row) throw notFound("Installment");
  return toInstallmentResponse(row, asOf);
}
