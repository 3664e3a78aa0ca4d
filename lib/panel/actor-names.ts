import type { Prisma } from "@prisma/client";
import { db } from "@/lib/db/client";

// The audit log names a credential by its id (`api_key:key_…`, `oauth_client:cli_…`): stable, and what an API
// client's own logs carry. People in the panel know their keys by name, so the panel shows "ERP integration (…a1b2)"
// beside the id and finds rows by a key's name. Tenant-scoped: another tenant's ids are never resolved.

const KINDS = { api_key: "api_key:", oauth_client: "oauth_client:" } as const;

/** Display names of the credentials among `labels`, by label (e.g. "api_key:key_01…" → "ERP integration (…a1b2)"). */
export async function credentialNames(tenantId: string, labels: readonly string[]): Promise<Map<string, string>> {
  const ids = (prefix: string) => [...new Set(labels.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length)))];
  const keyIds = ids(KINDS.api_key);
  const clientIds = ids(KINDS.oauth_client);
  const [keys, clients] = await Promise.all([
    keyIds.length ? db().apiKey.findMany({ where: { tenantId, id: { in: keyIds } }, select: { id: true, name: true, last4: true } }) : [],
    clientIds.length ? db().oAuthClient.findMany({ where: { tenantId, id: { in: clientIds } }, select: { id: true, name: true, clientId: true } }) : [],
  ]);
  const names = new Map<string, string>();
  for (const k of keys) names.set(`${KINDS.api_key}${k.id}`, `${k.name} (…${k.last4})`);
  for (const c of clients) names.set(`${KINDS.oauth_client}${c.id}`, `${c.name} (${c.clientId})`);
  return names;
}

/** Audit rows whose actor's label contains `text`, or that a credential named like `text` wrote. */
export async function actorFilter(tenantId: string, text: string): Promise<Prisma.AuditLogWhereInput> {
  const named = { tenantId, name: { contains: text, mode: "insensitive" as const } };
  const [keys, clients] = await Promise.all([
    db().apiKey.findMany({ where: named, select: { id: true }, take: 100 }),
    db().oAuthClient.findMany({ where: named, select: { id: true }, take: 100 }),
  ]);
  const labels = [...keys.map((k) => `${KINDS.api_key}${k.id}`), ...clients.map((c) => `${KINDS.oauth_client}${c.id}`)];
  const byLabel: Prisma.AuditLogWhereInput = { actorLabel: { contains: text, mode: "insensitive" } };
  return labels.length ? { OR: [byLabel, { actorLabel: { in: labels } }] } : byLabel;
}
