import { randomUUID } from "node:crypto";
import type { Environment } from "@prisma/client";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { getEnv } from "@/lib/env";
import type { Credential } from "./credential";
import { cacheKeys, cachedLookup } from "./credential-cache";
import { db } from "@/lib/db/client";
import { findActiveClient } from "./oauth-clients";

// JWT access tokens (RFC 9068 profile): HS256 pinned — the verifier accepts no other algorithm, so
// `alg: none` and algorithm-confusion tokens fail; iss, aud, exp, iat, jti and typ `at+jwt` are required.
// A token is valid only while its client is active and its grant (refresh-token family) exists and is not revoked.

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const ALGORITHM = "HS256";
const TYPE = "at+jwt";

let key: Uint8Array | undefined;
const signingKey = () => (key ??= new TextEncoder().encode(getEnv().AUTH_JWT_SECRET));

export type AccessTokenClaims = {
  clientId: string;
  tenantId: string;
  environment: Environment;
  scopes: readonly string[];
  familyId: string;
};

export async function signAccessToken(claims: AccessTokenClaims): Promise<string> {
  const env = getEnv();
  return new SignJWT({
    client_id: claims.clientId,
    scope: claims.scopes.join(" "),
    tenant_id: claims.tenantId,
    env: claims.environment,
    fid: claims.familyId,
  })
    .setProtectedHeader({ alg: ALGORITHM, typ: TYPE })
    .setIssuer(env.AUTH_JWT_ISSUER)
    .setAudience(env.AUTH_JWT_AUDIENCE)
    .setSubject(claims.clientId)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .setJti(randomUUID())
    .sign(signingKey());
}

type Payload = { client_id?: unknown; scope?: unknown; tenant_id?: unknown; env?: unknown; fid?: unknown };

/** A verified, still-valid access token → its credential; anything else → null. */
export async function verifyAccessToken(token: string): Promise<Credential | null> {
  const env = getEnv();
  let payload: Payload;
  try {
    ({ payload } = await jwtVerify<Payload>(token, signingKey(), {
      algorithms: [ALGORITHM],
      issuer: env.AUTH_JWT_ISSUER,
      audience: env.AUTH_JWT_AUDIENCE,
      typ: TYPE,
      requiredClaims: ["exp", "iat", "jti", "sub"],
    }));
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) return null;
    throw err;
  }
  const { client_id, scope, tenant_id, env: environment, fid } = payload;
  if (typeof client_id !== "string" || typeof scope !== "string" || typeof tenant_id !== "string") return null;
  if ((environment !== "sandbox" && environment !== "production") || typeof fid !== "string") return null;

  // Signed by us, so client_id names a real client: a revoked one is remembered, its tokens then cost no lookup.
  const client = await findActiveClient(client_id, { rememberRevoked: true });
  if (!client || client.tenantId !== tenant_id || client.environment !== environment) return null;
  if (!(await isGrantActive(fid, client.id))) return null;

  return {
    kind: "access_token",
    id: client.id,
    tenantId: tenant_id,
    environment,
    permissions: scope.split(" ").filter(Boolean),
    clientId: client.clientId,
    label: `oauth_client:${client.id}`,
  };
}

/** A token is honoured only while its grant exists and is active: the refresh-token family it was issued in
 *  belongs to this client (a token signed with the right key for an unknown grant is refused) and has not been
 *  revoked (refresh-token reuse revokes the family). The family's facts (owner, revoked) are cached under its id
 *  and compared per request — a forged token naming another client's family must not poison the owner's entry —
 *  and an unknown family is not cached. Invalidated with the revocation. */
async function isGrantActive(familyId: string, oauthClientId: string): Promise<boolean> {
  const grant = await cachedLookup<{ ownerId: string; revoked: boolean }>(cacheKeys.tokenFamily(familyId), async () => {
    const [issued, revoked] = await Promise.all([
      db().refreshToken.findFirst({ where: { familyId }, select: { oauthClientId: true } }),
      db().revokedTokenFamily.findUnique({ where: { familyId } }),
    ]);
    return issued ? { ownerId: issued.oauthClientId, revoked: revoked !== null } : null;
  });
  return grant !== null && grant.ownerId === oauthClientId && !grant.revoked;
}
