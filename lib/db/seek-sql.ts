import type { Scope } from "@/lib/scope";
import type { Keyset, PageAfter } from "./paginate";
import { NEWEST_FIRST } from "./paginate";
import type { Sql } from "./sql";

// One page of a tenant-scoped list in plain SQL (lib/db/sql.ts): the keyset as a row-value comparison
// `(sort, id) < ($at, $id)`, which PostgreSQL turns into an index range on (tenant_id, environment, sort, id)
// — tests/platform/pagination-plan.test.ts checks the plan 45,000 rows deep — ordered on the same columns,
// limit + 1 rows (the extra one says whether more exist). For the hottest lists, where Prisma's findMany
// cost several times the query itself.

const SORT_COLUMNS: Record<Keyset["field"], string> = { createdAt: "created_at", dueDate: "due_date" };

export type SeekRequest = {
  table: string;
  /** The select list (aliases in the model's field names). */
  columns: string;
  scope: Scope;
  /** Extra equality filters: column → value (already validated). */
  equals?: Record<string, unknown>;
  after?: PageAfter;
  limit: number;
  keyset?: Keyset;
};

export function seekPageSql(request: SeekRequest): Sql {
  const keyset = request.keyset ?? NEWEST_FIRST;
  const sort = SORT_COLUMNS[keyset.field];
  const direction = keyset.direction === "desc" ? "DESC" : "ASC";
  const values: unknown[] = [request.scope.tenantId, request.scope.environment];
  const conditions = ["tenant_id = $1", 'environment = $2::"Environment"'];
  for (const [column, value] of Object.entries(request.equals ?? {})) {
    if (!/^[a-z_]+$/.test(column)) throw new Error(`Not a column name: ${column}`);
    values.push(value);
    conditions.push(`${column} = $${values.length}`);
  }
  if (request.after) {
    values.push(request.after.at, request.after.id);
    const cast = keyset.field === "dueDate" ? "date" : "timestamptz";
    conditions.push(`(${sort}, id) ${keyset.direction === "desc" ? "<" : ">"} ($${values.length - 1}::${cast}, $${values.length})`);
  }
  values.push(request.limit + 1);
  const text = `SELECT ${request.columns} FROM ${request.table} WHERE ${conditions.join(" AND ")} ORDER BY ${sort} ${direction}, id ${direction} LIMIT $${values.length}`;
  return { text, values };
}
