import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { startOfDayInBrazil } from "@/lib/clock";
import { dateSchema } from "@/lib/date-schema";
import { addDays } from "@/lib/finance";
import { db } from "@/lib/db/client";
import { keysetWhere, paginate } from "@/lib/db/paginate";
import { decodeCursor, toListResponse } from "@/lib/pagination";
import { actorFilter, credentialNames } from "./actor-names";

// The audit log as owners and admins read it (issue 12): who did what and when — keys created and revoked,
// proposals approved, members changed, webhooks changed… — newest first, filtered by action, actor, environment,
// target and dates. Tenant-wide: some actions (members, the tenant itself) belong to no environment.

export const AuditQuery = z.strictObject({
  environment: z.enum(["sandbox", "production", "none"]).optional().describe("none: tenant-wide actions (members, the tenant)"),
  action: z.string().trim().max(100).optional().describe("An action (proposal.approved) or its prefix (proposal.)"),
  actor: z.string().trim().max(200).optional().describe("Part of the actor's label (an e-mail, cli:…, a key's name)"),
  target: z.string().trim().max(100).optional().describe("A target id (prp_…, key_…)"),
  from: dateSchema("Created on or after this day (São Paulo)").optional(),
  to: dateSchema("Created on or before this day (São Paulo)").optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export async function auditList(tenantId: string, query: AuditQuery) {
  // Cursors are signed for the tenant (the environment part of the signature is fixed: the log is tenant-wide).
  const cursorScope = { tenantId, environment: "sandbox" as const };
  const filters: Prisma.AuditLogWhereInput = {
    tenantId,
    ...(query.environment ? { environment: query.environment === "none" ? null : query.environment } : {}),
    ...(query.action ? { action: query.action.endsWith(".") ? { startsWith: query.action } : query.action } : {}),
    ...(query.actor ? await actorFilter(tenantId, query.actor) : {}),
    ...(query.target ? { targetId: query.target } : {}),
    ...(query.from || query.to
      ? { createdAt: { ...(query.from ? { gte: startOfDayInBrazil(query.from) } : {}), ...(query.to ? { lt: startOfDayInBrazil(addDays(query.to, 1)) } : {}) } }
      : {}),
  };
  const after = decodeCursor(cursorScope, query.cursor, "audit");
  const page = await paginate(query.limit, (args) => db().auditLog.findMany({ where: { ...filters, ...keysetWhere(after) }, ...args }));
  const names = await credentialNames(tenantId, page.items.map((row) => row.actorLabel));
  return toListResponse(cursorScope, page, (row) => ({
    id: row.id,
    at: row.createdAt.toISOString(),
    environment: row.environment,
    actor: { type: row.actorType, label: row.actorLabel, name: names.get(row.actorLabel) ?? null },
    action: row.action,
    target: { type: row.targetType, id: row.targetId },
    metadata: row.metadata,
  }));
}
