import type { PageAfter } from "@/lib/db/paginate";
import { seekPageSql } from "@/lib/db/seek-sql";
import { queryRows } from "@/lib/db/sql";
import { JsonText } from "@/lib/json-text";
import { decodeCursor, encodeCursor } from "@/lib/pagination";
import type { Scope } from "@/lib/scope";
import { compactDocument } from "./document";
import type { CustomerList, ListCustomersQuery } from "./schemas";

// The customers list is the API's hottest read: a page of 100 is ~60 kB of JSON. Each customer's API object is
// stored on its row (`customers.api_json`, a generated column PostgreSQL writes with the row itself: migration
// 20261208090000_customer_api_json), so a page reads 100 stored texts and Node only joins them into the list
// envelope. Built per request — row_to_json over every column, a dozen to_char and substr calls per customer —
// they were most of the database's time for a page. The column's function is the SQL twin of toCustomerView
// (./serialize.ts), which GET /v1/customers/{id} and every write still use; tests/customers/list-customers.test.ts
// requires every listed customer to equal its own GET, field by field, for persons and companies, with and without
// address, income and either payroll link, and after an update.
//
// The keyset is lib/db/seek-sql.ts's, as for every list; the cursor is signed as lib/pagination.ts signs it.

// Only the stored texts come back: the cursor's keyset position (created_at, id) is read from the last listed
// object itself, whose created_at is the column to the millisecond (timestamptz(3)). Selecting id and created_at
// beside it made the driver parse 101 timestamps into Dates per page, half of the node CPU the query cost
// (bench/list-cost.ts).
const COLUMNS = "api_json AS json";

type Row = { json: string };

/**
 * A page of the environment's customers, newest first, in the one list envelope. `document` (formatted or
 * not) matches exactly. The cursor is bound to the tenant and environment: another's is `invalid_cursor`.
 */
export async function listCustomers(scope: Scope, query: ListCustomersQuery): Promise<JsonText<CustomerList>> {
  const after = decodeCursor(scope, query.cursor, "customer");
  const equals = query.document === undefined ? {} : { document: compactDocument(query.document) };
  const rows = await queryRows<Row>(seekPageSql({ table: "customers", columns: COLUMNS, scope, equals, after, limit: query.limit }));
  const items = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const cursor = hasMore ? encodeCursor(scope, keysetOf(items.at(-1)!.json)) : null;
  return new JsonText(`{"object":"list","data":[${items.map((r) => r.json).join(",")}],"has_more":${hasMore},"next_cursor":${JSON.stringify(cursor)}}`);
}

function keysetOf(json: string): PageAfter {
  const customer = JSON.parse(json) as { id: string; created_at: string };
  return { at: new Date(customer.created_at), id: customer.id };
}
