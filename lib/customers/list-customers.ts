import type { Customer } from "@prisma/client";
import { seekPageSql } from "@/lib/db/seek-sql";
import { queryRows } from "@/lib/db/sql";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import type { Scope } from "@/lib/scope";
import { dateColumn } from "@/lib/serialize";
import { compactDocument } from "./document";
import type { CustomerList, ListCustomersQuery } from "./schemas";
import { toCustomerView } from "./serialize";

// The customers table read in plain SQL (lib/db/seek-sql.ts): Prisma's findMany of a 100-row page cost
// several milliseconds of CPU more than the query itself. Dates and int8 come back as text (the same from
// either driver) and are typed here.
const COLUMNS = `id, tenant_id AS "tenantId", environment::text AS environment, kind, document, name,
  to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", to_char(foundation_date, 'YYYY-MM-DD') AS "foundationDate",
  email, phone, address, monthly_income::text AS "monthlyIncome", payroll, created_at AS "createdAt", updated_at AS "updatedAt"`;

type Row = Omit<Customer, "birthDate" | "foundationDate" | "monthlyIncome"> & { birthDate: string | null; foundationDate: string | null; monthlyIncome: string | null };

function toCustomer(row: Row): Customer {
  return {
    ...row,
    birthDate: row.birthDate === null ? null : dateColumn(row.birthDate),
    foundationDate: row.foundationDate === null ? null : dateColumn(row.foundationDate),
    monthlyIncome: row.monthlyIncome === null ? null : BigInt(row.monthlyIncome),
  };
}

/**
 * A page of the environment's customers, newest first, in the one list envelope. `document` (formatted or
 * not) matches exactly. The cursor is bound to the tenant and environment: another's is `invalid_cursor`.
 */
export async function listCustomers(scope: Scope, query: ListCustomersQuery): Promise<CustomerList> {
  const after = decodeCursor(scope, query.cursor);
  const equals = query.document === undefined ? {} : { document: compactDocument(query.document) };
  const rows = await queryRows<Row>(seekPageSql({ table: "customers", columns: COLUMNS, scope, equals, after, limit: query.limit }));
  const page = { items: rows.slice(0, query.limit).map(toCustomer), hasMore: rows.length > query.limit };
  return toListResponse(scope, page, toCustomerView);
}
