import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { db, type Tx } from "@/lib/db/client";
import { notifyInvalidation } from "@/lib/db/notifications";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken } from "./access-tokens";
import { cacheKeys, invalidateLocal } from "./credential-cache";
import type { ActiveClient } from "./oauth-clients";
import { grants, isPermission, splitScopes, type FinePermission } from "./permissions";
import { randomSecret, sha256Hex } from "./secrets";

// The token endpoint's grants. client_credentials issues an access token and a refresh token (the spec
// gives refresh tokens 30 days); refresh_token rotates: the presented token is spent, a new one of the
// same family is returned, and presenting a spent token again revokes the whole family (RFC 9700).
// The 30 days belong to the grant, not to each token: a rotated token keeps its family's end, so a client
// refreshing every day still authenticates again after 30 days (spec §5.2 rule 4).

export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export type TokenResponse = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
  refresh_token: string;
  refresh_token_expires_in: number;
};

/** Scopes granted for a request: all of `allowed` when none asked, else the asked ones if all are allowed. */
export function resolveScopes(allowed: readonly string[], requested: string | undefined): string[] {
  if (requested === undefined || requested.trim() === "") return [...allowed];
  const asked = [...new Set(splitScopes(requested))];
  const denied = asked.filter(
    (s) => !isPermission(s) || !(allowed.includes(s) || (s.includes(":") && grants(allowed, s as FinePermission))),
  );
  if (denied.length > 0) {
    throw new DomainError("invalid_scope", `Scope not allowed for this client: ${denied.join(" ")}`);
  }
  return asked;
}

export async function issueClientCredentialsToken(client: ActiveClient, scope?: string): Promise<TokenResponse> {
  const scopes = resolveScopes(client.scopes, scope);
  const now = Date.now();
  return issuePair(client, scopes, randomUUID(), new Date(now + REFRESH_TOKEN_TTL_SECONDS * 1000), now);
}

/** `expiresAt`: the grant's end, set once by client_credentials and carried to every successor. `scopes`: the access
 *  token's; `grantScopes`: the refresh token's (RFC 6749 §6: a refresh narrows only the access token — the new refresh
 *  token keeps the scope of the one it replaces). */
async function issuePair(
  client: ActiveClient,
  scopes: string[],
  familyId: string,
  expiresAt: Date,
  now: number,
  tx: Tx | PrismaClient = db(),
  grantScopes: string[] = scopes,
): Promise<TokenResponse> {
  const refreshToken = randomSecret("rt_");
  await tx.refreshToken.create({
    data: {
      id: newId("refreshToken"),
      familyId,
      oauthClientId: client.id,
      tokenHash: sha256Hex(refreshToken),
      scopes: grantScopes,
      expiresAt,
    },
  });
  const accessToken = await signAccessToken({
    clientId: client.clientId,
    tenantId: client.tenantId,
    environment: client.environment,
    scopes,
    familyId,
  });
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    scope: scopes.join(" "),
    refresh_token: refreshToken,
    refresh_token_expires_in: Math.max(0, Math.floor((expiresAt.getTime() - now) / 1000)),
  };
}

const invalidGrant = (message: string) => new DomainError("invalid_grant", message);
const REUSED = "The refresh token was already used; every token of its grant is now revoked";

export async function refreshAccessToken(
  client: ActiveClient,
  refreshToken: string,
  scope?: string,
): Promise<TokenResponse> {
  const row = await db().refreshToken.findUnique({ where: { tokenHash: sha256Hex(refreshToken) } });
  if (!row || row.oauthClientId !== client.id) throw invalidGrant("The refresh token is invalid");
  if (row.revokedAt) throw invalidGrant("The refresh token was revoked");
  // Any use of a spent token is a reuse, expired or not: it was stolen or replayed, so the grant goes (RFC 9700).
  if (row.usedAt) {
    await revokeFamily(row.familyId);
    throw invalidGrant(REUSED);
  }
  if (row.expiresAt.getTime() <= Date.now()) throw invalidGrant("The refresh token has expired");
  // Validate before spending: a bad request must not burn the caller's refresh token.
  const scopes = resolveScopes(row.scopes, scope);

  // Spend it and issue its successor in one transaction: of two concurrent uses exactly one wins (the other is a
  // reuse), and a failure after the spend (a lost connection, a full pool) leaves it unspent — the 503's retry works,
  // instead of being taken for a reuse that revokes the grant.
  const outcome = await db().$transaction(async (tx): Promise<TokenResponse | "revoked" | "reused"> => {
    await lockFamily(tx, row.familyId);
    // Under the family lock a revocation is either complete (seen here) or waits for this rotation to commit and
    // then revokes its successor too. Checking the family, not only this row, also refuses a successor that an
    // earlier revocation missed.
    if (await tx.revokedTokenFamily.findUnique({ where: { familyId: row.familyId } })) return "revoked";
    const spent = await tx.refreshToken.updateMany({
      where: { id: row.id, usedAt: null, revokedAt: null },
      data: { usedAt: new Date() },
    });
    if (spent.count === 0) return "reused";
    // Narrowed for this access token only: the successor keeps the grant's scope, so a later refresh may ask for more
    // again (it narrowed the grant for good, against RFC 6749 §6).
    return issuePair(client, scopes, row.familyId, row.expiresAt, Date.now(), tx, row.scopes);
  });
  if (outcome === "revoked") {
    await revokeFamily(row.familyId); // a token the family's revocation missed: revoke it with the rest
    throw invalidGrant("The refresh token was revoked");
  }
  if (outcome === "reused") {
    await revokeFamily(row.familyId);
    throw invalidGrant(REUSED);
  }
  return outcome;
}

/** Serializes a family's rotations and its revocation (transaction-scoped advisory lock): under READ COMMITTED a
 *  revocation's UPDATE does not see a successor inserted by a rotation that commits after the UPDATE began, and
 *  that successor would stay usable. */
async function lockFamily(tx: Tx, familyId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`refresh_token_family:${familyId}`}, 0))`;
}

export async function revokeFamily(familyId: string): Promise<void> {
  await db().$transaction(async (tx) => {
    await lockFamily(tx, familyId);
    const now = new Date();
    await tx.refreshToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: now } });
    await tx.revokedTokenFamily.upsert({ where: { familyId }, create: { familyId }, update: {} });
    await notifyInvalidation(tx, cacheKeys.tokenFamily(familyId));
  });
  invalidateLocal(cacheKeys.tokenFamily(familyId));
}
