import type { Tx } from "@/lib/db/client";
import type { Scope } from "@/lib/scope";

/** Holds the customer for the caller's transaction (FOR KEY SHARE: writers of other rows for this customer do not wait
 *  on each other, a PATCH does not wait on them) so that erasing it (./erase-customer.ts, FOR UPDATE) waits until what
 *  is made for it has committed — and then refuses (a proposal, a reservation) or erases it too — or, when the erasure
 *  came first, this finds no customer. False when there is none in the scope. */
export async function holdCustomer(tx: Tx, scope: Scope, id: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM customers WHERE id = ${id} AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" FOR KEY SHARE`;
  return rows.length === 1;
}
