import type { Actor } from "@/lib/audit/audit-log";
import type { Tx } from "@/lib/db/client";
import { DomainError } from "@/lib/errors";
import { canManageMembers } from "./roles";

// Every change to who belongs to a tenant — a role changed, a member removed, an invitation sent or revoked — runs
// under the tenant row's lock and re-reads there that whoever asks may still manage members. The caller's role was
// checked before the lock (lib/panel/panel-route.ts), by then perhaps no longer theirs: an owner removing or demoting
// them may have committed while this request waited. So of two owners acting on each other at the same moment the
// first change wins and the second is refused, and no link is sent by someone who was just removed.

/** Operators (the CLI, the platform itself) are no member of the tenant: their changes are not checked against one. */
const OPERATORS: ReadonlySet<Actor["type"]> = new Set(["cli", "system"]);

export async function lockTenantForMemberChange(tx: Tx, tenantId: string, actor: Actor): Promise<void> {
  await tx.$queryRaw`SELECT id FROM tenants WHERE id = ${tenantId} FOR UPDATE`;
  if (OPERATORS.has(actor.type)) return;
  const caller = actor.id ? await tx.membership.findUnique({ where: { tenantId_userId: { tenantId, userId: actor.id } } }) : null;
  if (!caller || !canManageMembers(caller.role)) throw new DomainError("forbidden", "Only owners invite, change or remove members");
}
