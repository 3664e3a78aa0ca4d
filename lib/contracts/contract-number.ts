import type { Tx } from "@/lib/db/client";
import type { Scope } from "@/lib/scope";

/** The next CCB number of the tenant and environment for a year: CCB-2026-000001, consecutive per year (a payroll
 *  proposal takes its number before its averbação: one the authority refused stays with it, unissued). */
export async function nextContractNumber(tx: Tx, scope: Scope, year: string): Promise<string> {
  const rows = await tx.$queryRaw<{ value: number }[]>`
    INSERT INTO sequences (tenant_id, environment, name, value)
    VALUES (${scope.tenantId}, ${scope.environment}::"Environment", ${`contract-${year}`}, 1)
    ON CONFLICT (tenant_id, environment, name) DO UPDATE SET value = sequences.value + 1
    RETURNING value`;
  return `CCB-${year}-${String(rows[0]!.value).padStart(6, "0")}`;
}
