import { seekPageSql } from "@/lib/db/seek-sql";
import { queryRows } from "@/lib/db/sql";
import { JsonText } from "@/lib/json-text";
import { decodeCursor, encodeCursor } from "@/lib/pagination";
import type { Scope } from "@/lib/scope";
import { compactDocument } from "./document";
import type { CustomerList, ListCustomersQuery } from "./schemas";

// The customers list is the API's hottest read: a page of 100 is ~60 kB of JSON. PostgreSQL writes each
// customer's JSON itself (row_to_json, compact, in the API's field order) and Node only joins the texts into
// the list envelope: parsing 100 rows × 15 columns into objects, mapping them to views and stringifying them
// again cost the server's one thread ~1.2 ms of a 3 ms request (bench/list-cost.ts). CUSTOMER_JSON below is
// the SQL twin of toCustomerView (./serialize.ts), which GET /v1/customers/{id} and every write still use;
// tests/customers/list-customers.test.ts requires every listed customer to equal its own GET, field by field,
// for persons and companies, with and without address, income and either payroll link.
//
// The keyset is lib/db/seek-sql.ts's, as for every list; the cursor is signed as lib/pagination.ts signs it.

const C = "customers";
const at = (column: string) => `to_char(${C}.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const sub = (from: number, length: number) => `substr(${C}.document, ${from}, ${length})`;
const address = (field: string) => `${C}.address->'${field}' AS ${field}`;

const CUSTOMER_JSON = `(SELECT row_to_json(v)::text FROM (SELECT
    ${C}.id, 'customer' AS object, ${C}.kind, ${C}.document,
    CASE ${C}.kind
      WHEN 'person' THEN ${sub(1, 3)} || '.' || ${sub(4, 3)} || '.' || ${sub(7, 3)} || '-' || ${sub(10, 2)}
      ELSE ${sub(1, 2)} || '.' || ${sub(3, 3)} || '.' || ${sub(6, 3)} || '/' || ${sub(9, 4)} || '-' || ${sub(13, 2)}
    END AS document_formatted,
    ${C}.name,
    to_char(${C}.birth_date, 'YYYY-MM-DD') AS birth_date,
    to_char(${C}.foundation_date, 'YYYY-MM-DD') AS foundation_date,
    ${C}.email, ${C}.phone,
    (SELECT row_to_json(a) FROM (SELECT ${address("street")}, ${address("number")},
            COALESCE(${C}.address->'complement', 'null'::jsonb) AS complement, ${address("district")}, ${address("city")},
            ${address("state")}, ${address("zip_code")}) a
      WHERE jsonb_typeof(${C}.address) = 'object') AS address,
    ${C}.monthly_income,
    CASE ${C}.payroll->>'type'
      WHEN 'inss' THEN (SELECT row_to_json(p) FROM (SELECT 'inss' AS type, ${C}.payroll->'benefit_number' AS benefit_number) p)
      WHEN 'private' THEN (SELECT row_to_json(p) FROM (SELECT 'private' AS type, ${C}.payroll->'employer_cnpj' AS employer_cnpj,
                                                              ${C}.payroll->'registration' AS registration) p)
    END AS payroll,
    ${C}.environment,
    ${at("created_at")} AS created_at,
    ${at("updated_at")} AS updated_at
  ) v) AS json`;

const COLUMNS = `id, created_at AS "createdAt", ${CUSTOMER_JSON}`;

type Row = { id: string; createdAt: Date; json: string };

/**
 * A page of the environment's customers, newest first, in the one list envelope. `document` (formatted or
 * not) matches exactly. The cursor is bound to the tenant and environment: another's is `invalid_cursor`.
 */
export async function listCustomers(scope: Scope, query: ListCustomersQuery): Promise<JsonText<CustomerList>> {
  const after = decodeCursor(scope, query.cursor, "customer");
  const equals = query.document === undefined ? {} : { document: compactDocument(query.document) };
  const rows = await queryRows<Row>(seekPageSql({ table: C, columns: COLUMNS, scope, equals, after, limit: query.limit }));
  const items = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const last = items.at(-1);
  const cursor = hasMore && last ? encodeCursor(scope, { at: new Date(last.createdAt), id: last.id }) : null;
  return new JsonText(`{"object":"list","data":[${items.map((r) => r.json).join(",")}],"has_more":${hasMore},"next_cursor":${JSON.stringify(cursor)}}`);
}
