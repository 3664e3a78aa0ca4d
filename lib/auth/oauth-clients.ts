import type { Environment, OAuthClient } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { notifyInvalidation } from "@/lib/db/notifications";
import { notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { REVOKED_SHOWN_DAYS } from "./credential";
import { cacheKeys, cachedLookup, invalidateLocal, isRevoked, REVOKED, type Revoked } from "./credential-cache";
import { normalizePermissions, type Permission } from "./permissions";
import { lastFour, randomSecret, safeEqualHex, sha256Hex } from "./secrets";

// OAuth2 clients for the client_credentials grant: client_id is public, client_secret is shown once and
// stored as SHA-256. Revoking a client also revokes its refresh tokens; its access tokens stop working on
// the next request because every token verification checks the client (tokens.ts).

const CLIENT_ID_PREFIX: Record<Environment, string> = { sandbox: "ci_test_", production: "ci_live_" };
const CLIENT_SECRET_PREFIX: Record<Environment, string> = { sandbox: "cs_test_", production: "cs_live_" };

export type OAuthClientView = {
  id: string;
  object: "oauth_client";
  name: string;
  client_id: string;
  environment: Environment;
  scopes: string[];
  secret_last4: string;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

export function toOAuthClientView(row: OAuthClient): OAuthClientView {
  return {
    id: row.id,
    object: "oauth_client",
    name: row.name,
    client_id: row.clientId,
    environment: row.environment,
    scopes: row.scopes,
    secret_last4: row.secretLast4,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

export type CreateOAuthClientInput = {
  tenantId: string;
  environment: Environment;
  name: string;
  scopes: readonly Permission[];
  actor: Actor;
};

export async function createOAuthClient(
  input: CreateOAuthClientInput,
): Promise<{ client: OAuthClientView; clientSecret: string }> {
  const clientSecret = randomSecret(CLIENT_SECRET_PREFIX[input.environment]);
  const row = await db().$transaction(async (tx) => {
    const created = await tx.oAuthClient.create({
      data: {
        id: newId("oauthClient"),
        tenantId: input.tenantId,
        environment: input.environment,
        name: input.name,
        clientId: randomSecret(CLIENT_ID_PREFIX[input.environment], 16),
        secretHash: sha256Hex(clientSecret),
        secretLast4: lastFour(clientSecret),
        scopes: normalizePermissions(input.scopes),
        createdBy: input.actor.label,
      },
    });
    await writeAudit(tx, {
      tenantId: input.tenantId,
      environment: input.environment,
      actor: input.actor,
      action: "oauth_client.created",
      target: { type: "oauth_client", id: created.id },
      metadata: { name: created.name, client_id: created.clientId, scopes: created.scopes },
    });
    return created;
  });
  return { client: toOAuthClientView(row), clientSecret };
}

/** Live ones, and those revoked in the last REVOKED_SHOWN_DAYS days (the list kept every revoked one for ever). */
export async function listOAuthClients(tenantId: string, now = new Date()): Promise<OAuthClientView[]> {
  const rows = await db().oAuthClient.findMany({
    where: { tenantId, OR: [{ revokedAt: null }, { revokedAt: { gt: new Date(now.getTime() - REVOKED_SHOWN_DAYS * 86_400_000) } }] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toOAuthClientView);
}

/** Revokes a client of this tenant and its refresh tokens. Revoking an already revoked client changes nothing and
 *  returns it. */
export async function revokeOAuthClient(tenantId: string, id: string, actor: Actor): Promise<OAuthClientView> {
  const row = await db().$transaction(async (tx) => {
    const now = new Date();
    // Conditional: of two revocations at once, one records the time, the audit row and the notice; the other waits for
    // it, finds the client revoked and answers it as it is.
    const revoked = await tx.oAuthClient.updateMany({ where: { id, tenantId, revokedAt: null }, data: { revokedAt: now } });
    const client = await tx.oAuthClient.findFirst({ where: { id, tenantId } });
    if (!client) throw notFound("OAuth client");
    if (revoked.count !== 1) return client;
    await tx.refreshToken.updateMany({ where: { oauthClientId: id, revokedAt: null }, data: { revokedAt: now } });
    await writeAudit(tx, {
      tenantId,
      environment: client.environment,
      actor,
      action: "oauth_client.revoked",
      target: { type: "oauth_client", id },
      metadata: { name: client.name, client_id: client.clientId },
    });
    await notifyInvalidation(tx, cacheKeys.oauthClient(client.clientId));
    return client;
  });
  invalidateLocal(cacheKeys.oauthClient(row.clientId));
  return toOAuthClientView(row);
}

export type ActiveClient = {
  id: string;
  clientId: string;
  tenantId: string;
  environment: Environment;
  scopes: string[];
  secretHash: string;
};

/**
 * The active (not revoked) client with this client_id, through the credential cache. With `rememberRevoked` — the
 * client_id is a real one, read from an access token whose signature verified — a revoked client is cached as such:
 * its tokens, still presented until they expire, cost no lookup each (an invalid_token is not counted per address,
 * lib/api/auth-failures.ts). Without it (the token endpoint, where anyone may send any client_id) no such entry is
 * made, though one already made answers.
 */
export async function findActiveClient(clientId: string, { rememberRevoked = false } = {}): Promise<ActiveClient | null> {
  const found = await cachedLookup<ActiveClient | Revoked>(cacheKeys.oauthClient(clientId), async () => {
    const row = await db().oAuthClient.findUnique({ where: { clientId } });
    if (!row) return null;
    if (row.revokedAt) return rememberRevoked ? REVOKED : null;
    return {
      id: row.id,
      clientId: row.clientId,
      tenantId: row.tenantId,
      environment: row.environment,
      scopes: row.scopes,
      secretHash: row.secretHash,
    };
  });
  return isRevoked(found) ? null : found;
}

/** client_id + client_secret → the active client, or null (unknown, revoked or wrong secret). */
export async function authenticateClient(clientId: string, clientSecret: string): Promise<ActiveClient | null> {
  const client = await findActiveClient(clientId);
  if (!client) return null;
  if (!safeEqualHex(client.secretHash, sha256Hex(clientSecret))) return null;
  return client;
}
