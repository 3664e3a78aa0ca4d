import type { ApiKey, Environment } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { notifyInvalidation } from "@/lib/db/notifications";
import { notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { REVOKED_SHOWN_DAYS, type Credential } from "./credential";
import { cacheKeys, cachedLookup, invalidateLocal } from "./credential-cache";
import { normalizePermissions, type Permission } from "./permissions";
import { lastFour, randomSecret, sha256Hex } from "./secrets";

// API keys: created in the panel or the CLI, bound to one tenant and one environment, shown once,
// stored as SHA-256 only, never expire, revocable at any time (effective on the next request).

export const API_KEY_PREFIX: Record<Environment, string> = { sandbox: "sk_test_", production: "sk_live_" };

export type ApiKeyView = {
  id: string;
  object: "api_key";
  name: string;
  environment: Environment;
  permissions: string[];
  last4: string;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

export function toApiKeyView(row: ApiKey): ApiKeyView {
  return {
    id: row.id,
    object: "api_key",
    name: row.name,
    environment: row.environment,
    permissions: row.permissions,
    last4: row.last4,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

export type CreateApiKeyInput = {
  tenantId: string;
  environment: Environment;
  name: string;
  permissions: readonly Permission[];
  actor: Actor;
};

export async function createApiKey(input: CreateApiKeyInput): Promise<{ apiKey: ApiKeyView; key: string }> {
  const key = randomSecret(API_KEY_PREFIX[input.environment]);
  const row = await db().$transaction(async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        id: newId("apiKey"),
        tenantId: input.tenantId,
        environment: input.environment,
        name: input.name,
        keyHash: sha256Hex(key),
        last4: lastFour(key),
        permissions: normalizePermissions(input.permissions),
        createdBy: input.actor.label,
      },
    });
    await writeAudit(tx, {
      tenantId: input.tenantId,
      environment: input.environment,
      actor: input.actor,
      action: "api_key.created",
      target: { type: "api_key", id: created.id },
      metadata: { name: created.name, permissions: created.permissions },
    });
    return created;
  });
  return { apiKey: toApiKeyView(row), key };
}

/** Live ones, and those revoked in the last REVOKED_SHOWN_DAYS days (the list kept every revoked one for ever). */
export async function listApiKeys(tenantId: string, now = new Date()): Promise<ApiKeyView[]> {
  const rows = await db().apiKey.findMany({
    where: { tenantId, OR: [{ revokedAt: null }, { revokedAt: { gt: new Date(now.getTime() - REVOKED_SHOWN_DAYS * 86_400_000) } }] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toApiKeyView);
}

/** Revokes a key of this tenant. Revoking an already revoked key changes nothing and returns it. */
export async function revokeApiKey(tenantId: string, id: string, actor: Actor): Promise<ApiKeyView> {
  const row = await db().$transaction(async (tx) => {
    // Conditional: of two revocations at once, one records the time, the audit row and the notice; the other waits for
    // it, finds the key revoked and answers it as it is.
    const revoked = await tx.apiKey.updateMany({ where: { id, tenantId, revokedAt: null }, data: { revokedAt: new Date() } });
    const key = await tx.apiKey.findFirst({ where: { id, tenantId } });
    if (!key) throw notFound("API key");
    if (revoked.count !== 1) return key;
    await writeAudit(tx, {
      tenantId,
      environment: key.environment,
      actor,
      action: "api_key.revoked",
      target: { type: "api_key", id },
      metadata: { name: key.name },
    });
    await notifyInvalidation(tx, cacheKeys.apiKey(key.keyHash));
    return key;
  });
  invalidateLocal(cacheKeys.apiKey(row.keyHash));
  return toApiKeyView(row);
}

type CachedKey = { id: string; tenantId: string; environment: Environment; permissions: string[]; name: string };

/** The hot path: plaintext key → credential, or null when unknown or revoked. */
export async function resolveApiKey(plaintext: string): Promise<Credential | null> {
  const keyHash = sha256Hex(plaintext);
  const key = await cachedLookup<CachedKey>(cacheKeys.apiKey(keyHash), async () => {
    const row = await db().apiKey.findUnique({ where: { keyHash } });
    if (!row || row.revokedAt) return null;
    return { id: row.id, tenantId: row.tenantId, environment: row.environment, permissions: row.permissions, name: row.name };
  });
  if (!key) return null;
  return {
    kind: "api_key",
    id: key.id,
    tenantId: key.tenantId,
    environment: key.environment,
    permissions: key.permissions,
    label: `api_key:${key.id}`,
  };
}
