import type { Actor } from "@/lib/audit/audit-log";
import { queryRows, sql } from "@/lib/db/sql";
import { newId } from "@/lib/ids";
import type { Scope } from "@/lib/scope";

// Who saw a customer's data in the panel, and when (LC 105/2001, bank secrecy: an institution answers for every
// access to its clients' data; LGPD art. 37: a record of the processing). Each screen that shows a customer's file —
// the customer file, a proposal's dossier, a contract's file — writes an audit row `customer.viewed` about the
// customer, naming the screen and the object it was opened for (`metadata.via`, `metadata.object_id`). The audit log
// then answers "who opened this customer's data" (Settings → Audit log, target = the customer's id).
//
// The screens refetch while open (every focus, every poll): one row per person, customer and screen object in
// ACCESS_LOG_WINDOW_MINUTES is the access; more would bury the log. Written after the data was read (a 404 writes
// nothing), outside any transaction: a view changes nothing else to be atomic with.

export const ACCESS_LOG_WINDOW_MINUTES = 10;

export type AccessVia = "customer_file" | "proposal" | "contract";

export async function recordCustomerAccess(scope: Scope, actor: Actor, customerId: string, via: AccessVia, objectId: string): Promise<void> {
  const metadata = JSON.stringify({ via, object_id: objectId });
  await queryRows(sql`
    INSERT INTO audit_logs (id, tenant_id, environment, actor_type, actor_id, actor_label, action, target_type, target_id, metadata)
    SELECT ${newId("audit")}, ${scope.tenantId}, ${scope.environment}::"Environment", ${actor.type}, ${actor.id ?? null}, ${actor.label},
           'customer.viewed', 'customer', ${customerId}, ${metadata}::jsonb
     WHERE NOT EXISTS (
       SELECT 1 FROM audit_logs
        WHERE tenant_id = ${scope.tenantId} AND target_id = ${customerId}
          AND created_at > now() - make_interval(mins => ${ACCESS_LOG_WINDOW_MINUTES})
          AND action = 'customer.viewed' AND actor_label = ${actor.label} AND environment = ${scope.environment}::"Environment"
          AND metadata = ${metadata}::jsonb)
    RETURNING id`);
}
