import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { where, type Scope } from "@/lib/scope";
import { compactDocument } from "./document";
import type { CustomerList, ListCustomersQuery } from "./schemas";
import { toCustomerView } from "./serialize";

/**
 * A page of the environment's customers, newest first, in the one list envelope. `document` (formatted or
 * not) matches exactly. The cursor is bound to the tenant and environment: another's is `invalid_cursor`.
 */
export async function listCustomers(scope: Scope, query: ListCustomersQuery): Promise<CustomerList> {
  const after = decodeCursor(scope, query.cursor);
  const document = query.document === undefined ? {} : { document: compactDocument(query.document) };
  const page = await paginate(query.limit, (args) =>
    db().customer.findMany({ where: { ...where(scope), ...document, ...keysetWhere(after) }, ...args }),
  );
  return toListResponse(scope, page, toCustomerView);
}
