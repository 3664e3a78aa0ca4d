import { verifyAccessToken } from "@/lib/auth/access-tokens";
import { resolveApiKey } from "@/lib/auth/api-keys";
import type { Credential } from "@/lib/auth/credential";
import { cacheKeys, isCached } from "@/lib/auth/credential-cache";
import { authenticateClient, findActiveClient, type ActiveClient } from "@/lib/auth/oauth-clients";
import { sha256Hex } from "@/lib/auth/secrets";
import type { Environment } from "@prisma/client";
import { ApiError } from "./errors";

// Authentication steps of the /v1 wrapper: who is calling, then whether that caller may act for the
// tenant in X-Tenant-Id on this environment's host.

const REALM = 'Bearer realm="credit-platform"';
const INVALID = 'Bearer realm="credit-platform", error="invalid_token"';

/** The token of an `Authorization: Bearer <token>` header (RFC 6750 b64token), or undefined. */
const bearerToken = (header: string): string | undefined => /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)$/i.exec(header.trim())?.[1];

/** Bearer API key (sk_test_…/sk_live_…) or JWT access token → credential; 401 otherwise. */
export async function authenticateBearer(request: Request): Promise<Credential> {
  const header = request.headers.get("authorization");
  if (!header) {
    throw new ApiError("authentication_required", "Send Authorization: Bearer <API key or access token>", {
      headers: { "www-authenticate": REALM },
    });
  }
  const token = bearerToken(header);
  if (!token) {
    throw new ApiError("invalid_token", "The Authorization header must be: Bearer <token>", {
      headers: { "www-authenticate": INVALID },
    });
  }
  if (token.startsWith("sk_")) {
    const credential = await resolveApiKey(token);
    if (!credential) throw new ApiError("invalid_api_key", undefined, { headers: { "www-authenticate": INVALID } });
    return credential;
  }
  const credential = token.split(".").length === 3 ? await verifyAccessToken(token) : null;
  if (!credential) throw new ApiError("invalid_token", undefined, { headers: { "www-authenticate": INVALID } });
  return credential;
}

const BASIC_CHALLENGE = 'Basic realm="credit-platform", charset="UTF-8"';

/** RFC 6749 §5.2: a 401 invalid_client carries the challenge of the method the client may use (HTTP Basic). */
const invalidClient = (detail: string) =>
  new ApiError("invalid_client", detail, { headers: { "www-authenticate": BASIC_CHALLENGE } });

/** The same 401 for client credentials refused before any was checked (missing, malformed, sent two ways): not a guess
 *  at a secret, so not counted against the client's address (./auth-failures.ts). */
export class UncheckedClientCredentials extends ApiError {}
const uncheckedClient = (detail: string) =>
  new UncheckedClientCredentials("invalid_client", detail, { headers: { "www-authenticate": BASIC_CHALLENGE } });

/** OAuth2 client authentication (RFC 6749 §2.3.1): HTTP Basic, or client_id/client_secret in the form. */
export async function authenticateOAuthClient(
  request: Request,
  form: Record<string, unknown> | undefined,
): Promise<Credential> {
  const { clientId, clientSecret } = clientCredentialsOf(request, form);
  const client = await authenticateClient(clientId, clientSecret);
  if (!client) throw invalidClient("Unknown client, wrong secret or revoked client");
  return {
    kind: "oauth_client",
    id: client.id,
    tenantId: client.tenantId,
    environment: client.environment,
    permissions: client.scopes,
    clientId: client.clientId,
    label: `oauth_client:${client.id}`,
  };
}

/** The client's id and secret from HTTP Basic or the form, checked for shape; 401 invalid_client when malformed. */
function clientCredentialsOf(request: Request, form: Record<string, unknown> | undefined): { clientId: string; clientSecret: string } {
  let clientId = typeof form?.client_id === "string" ? form.client_id : undefined;
  let clientSecret = typeof form?.client_secret === "string" ? form.client_secret : undefined;
  const header = request.headers.get("authorization");
  if (header?.toLowerCase().startsWith("basic ")) {
    // A secret in the body as well is two authentication methods (§2.3: use only one). A client_id in the body is
    // not: §3.2.1 lets a client identify itself there, and libraries send it beside Basic — it must name the same
    // client (checked below).
    if (clientSecret) throw uncheckedClient("Use one client authentication method, not two");
    const formClientId = clientId;
    const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw uncheckedClient("Malformed Basic credentials");
    // RFC 6749 §2.3.1: both parts are form-urlencoded; bad percent-encoding is the client's error, not ours.
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replaceAll("+", " "));
      clientSecret = decodeURIComponent(decoded.slice(colon + 1).replaceAll("+", " "));
    } catch {
      throw uncheckedClient("Malformed Basic credentials: bad percent-encoding");
    }
    if (formClientId && formClientId !== clientId) throw uncheckedClient("client_id in the body differs from the HTTP Basic client");
  }
  // Credentials are printable ASCII (ids and secrets we issued): anything else cannot match, and NUL or
  // ill-formed text must never reach a query.
  const printable = /^[\x21-\x7e]{1,200}$/;
  if ((clientId !== undefined && !printable.test(clientId)) || (clientSecret !== undefined && !printable.test(clientSecret))) {
    throw uncheckedClient("Unknown client, wrong secret or revoked client");
  }
  if (!clientId || !clientSecret) throw uncheckedClient("client_id and client_secret are required");
  return { clientId, clientSecret };
}

/**
 * Whether authenticating this request would look a credential up in the database: an API key or an OAuth2 client this
 * process has not found valid within the credential cache's minute. An access token is judged by its signature first
 * (no lookup for a forged one), and no credential at all is no lookup.
 */
export function needsCredentialLookup(request: Request, op: { auth?: string }, form: Record<string, unknown> | undefined): boolean {
  if (op.auth === "oauth_client") {
    try {
      return !isCached(cacheKeys.oauthClient(clientCredentialsOf(request, form).clientId));
    } catch {
      return false; // malformed: refused without a lookup
    }
  }
  const token = bearerToken(request.headers.get("authorization") ?? "");
  return token !== undefined && token.startsWith("sk_") && !isCached(cacheKeys.apiKey(sha256Hex(token)));
}

/** The token endpoint's client, still active as its grant is issued (revoked since it authenticated: invalid_client). */
export async function activeOAuthClient(credential: Credential): Promise<ActiveClient> {
  const active = credential.clientId ? await findActiveClient(credential.clientId) : null;
  if (!active || active.id !== credential.id) throw invalidClient("The client is not active");
  return active;
}

/** X-Tenant-Id must name the credential's tenant (optional only where `optional`, e.g. the token endpoint). */
export function checkTenant(request: Request, credential: Credential, optional = false): void {
  const tenant = request.headers.get("x-tenant-id")?.trim();
  if (!tenant) {
    if (optional) return;
    throw new ApiError("tenant_header_required", "Send X-Tenant-Id with your tenant's id");
  }
  if (tenant !== credential.tenantId) {
    throw new ApiError("tenant_mismatch", "X-Tenant-Id does not match the credential's tenant");
  }
}

/** A sandbox credential on the production host (or the reverse) is refused: data never mixes. */
export function checkEnvironment(credential: Credential, environment: Environment): void {
  if (credential.environment === environment) return;
  const detail = `This ${credential.environment} credential cannot be used on the ${environment} base address`;
  if (credential.kind === "oauth_client") throw invalidClient(detail);
  throw new ApiError("environment_mismatch", detail, { headers: { "www-authenticate": INVALID } });
}
