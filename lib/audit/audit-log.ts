import type { Environment, Prisma } from "@prisma/client";
import type { Tx } from "@/lib/db/client";
import { newId } from "@/lib/ids";

// Who did what, when: written in the same transaction as the change it records.
export type Actor = {
  type: "user" | "cli" | "api_key" | "access_token" | "oauth_client" | "system";
  id?: string;
  label: string;
};

export type AuditEntry = {
  tenantId: string;
  environment?: Environment;
  actor: Actor;
  action: string;
  target: { type: string; id: string };
  metadata?: Prisma.InputJsonObject;
};

export async function writeAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.auditLog.create({
    data: {
      id: newId("audit"),
      tenantId: entry.tenantId,
      environment: entry.environment ?? null,
      actorType: entry.actor.type,
      actorId: entry.actor.id ?? null,
      actorLabel: entry.actor.label,
      action: entry.action,
      targetType: entry.target.type,
      targetId: entry.target.id,
      metadata: entry.metadata ?? {},
    },
  });
}
