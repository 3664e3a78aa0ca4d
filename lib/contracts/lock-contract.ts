import type { Tx } from "@/lib/db/client";
import type { Scope } from "@/lib/scope";

// Every transaction that moves a contract's money or state takes the contract's row lock first, before the rows
// under it (charges, settlements, installments): two payments of one installment, a payment and the credit job, a
// settlement's completion and its cancel then run one after the other, each seeing what the other committed, and
// no two of them can lock the same rows in opposite orders (a deadlock).

/** Locks the contract's row (FOR UPDATE) for the rest of the transaction; false when it is not in `scope`. */
export async function lockContract(tx: Tx, scope: Scope, contractId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM contracts WHERE id = ${contractId} AND tenant_id = ${scope.tenantId} AND environment = ${scope.environment}::"Environment" FOR UPDATE`;
  return rows.length === 1;
}
