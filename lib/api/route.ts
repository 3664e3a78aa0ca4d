import { createHash } from "node:crypto";
import type { Environment } from "@prisma/client";
import type { z } from "zod";
import type { Actor } from "@/lib/audit/audit-log";
import type { Credential } from "@/lib/auth/credential";
import { touchLastUsed } from "@/lib/auth/last-used";
import { grants } from "@/lib/auth/permissions";
import { rootDb } from "@/lib/db/client";
import { requestTransactionOptions, runInAmbientTransaction } from "@/lib/db/transaction";
import { TransientConflict } from "@/lib/errors";
import { openSecret, sealSecret } from "@/lib/security/secret-box";
import { newId } from "@/lib/ids";
import { JsonText } from "@/lib/json-text";
import { authFailures } from "./auth-failures";
import { authenticateBearer, authenticateOAuthClient, checkEnvironment, checkTenant, needsCredentialLookup, UncheckedClientCredentials } from "./authenticate";
import { environmentOf } from "./environment";
import { errorResponse } from "./error-response";
import { ApiError } from "./errors";
import { claimIdempotencyKey, completeIdempotencyKey, completeInTransaction, fingerprint, LeaseLostError, releaseIdempotencyKey, sealedName, type IdempotencyScope } from "./idempotency";
import { deprecationHeader, type Operation } from "./operation";
import { rateLimitHeaders, rateLimits } from "./rate-limit";
import { queryObject, readBody, readRequestId, validate } from "./request-input";

// The one /v1 wrapper. Each step is a small function of its own; this file only puts them in order:
// request id → environment of the host → authenticate → environment match → rate limit → tenant → permission →
// body → validation → idempotency → handler → one error mapper. The body is read only once the caller is known and
// charged: an anonymous request is refused before its body is read, and a malformed body (400, 413, 415) counts
// against the caller's rate limit like any other answer. The token endpoint alone reads its body first: the client's
// credentials are in it.

export type ApiContext = {
  requestId: string;
  /** The caller's X-Request-Id / Idempotency-Key, when sent (null: the request id above was generated). */
  idempotencyKey: string | null;
  credential: Credential;
  /** Whose idempotency keys these are: the credential and its permission set (see the wrapper below). */
  idempotencyScope: string;
  tenantId: string;
  environment: Environment;
  actor: Actor;
};

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export type HandlerInput<P, Q, B> = { ctx: ApiContext; params: Infer<P>; query: Infer<Q>; body: Infer<B>; request: Request };
export type ApiResult = { status?: number; body: unknown; headers?: Record<string, string> };

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = ((request: Request, context: RouteContext) => Promise<Response>) & { operation: Operation };

export function apiRoute<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
  op: Operation<P, Q, B>,
  handler: (input: HandlerInput<P, Q, B>) => Promise<ApiResult>,
): RouteHandler {
  const run = async (request: Request, context: RouteContext): Promise<Response> => {
    const headers = new Headers({ "cache-control": "no-store" });
    if (op.oauthErrors) headers.set("pragma", "no-cache");
    if (op.deprecated) addDeprecationHeaders(headers, op.deprecated);
    let requestId = "";
    let hostEnvironment: Environment | null = null;
    try {
      const ids = readRequestId(request);
      requestId = ids.requestId;
      headers.set("x-request-id", requestId);
      const environment = environmentOf(request);
      hostEnvironment = environment;
      if (op.sandboxOnly && environment !== "sandbox") throw new ApiError("not_found", "This operation exists only in the sandbox");
      const bodyFirst = op.auth === "oauth_client";
      let rawBody = op.body && bodyFirst ? await readBody(request, op.bodyKind ?? "json") : undefined;

      const credential = await authenticate(request, op, rawBody);
      checkEnvironment(credential, environment);
      // Charged as soon as the caller is known (a credential valid on this host): every answer to it — a 403 for
      // another tenant's id or a missing permission included — counts and carries the X-RateLimit-* headers, so
      // refused requests cannot be sent without limit.
      const limit = await rateLimits().consume(credential.tenantId, environment);
      for (const [name, value] of Object.entries(rateLimitHeaders(limit))) headers.set(name, value);
      checkTenant(request, credential, op.auth === "oauth_client");
      // Used: presented for its own tenant and environment (a sandbox key sent to production, or under another
      // X-Tenant-Id, is refused above and leaves last_used_at alone — the panel shows it to tell a key safe to revoke).
      touchLastUsed(credential.kind === "api_key" ? "api_key" : "oauth_client", credential.id);
      if (op.permission && !grants(credential.permissions, op.permission)) {
        throw new ApiError("insufficient_permissions", `This operation requires the ${op.permission} permission`);
      }
      if (op.alsoRequires && !grants(credential.permissions, op.alsoRequires)) {
        throw new ApiError("insufficient_permissions", `This operation requires the ${op.permission} and ${op.alsoRequires} permissions (its answer carries what ${op.alsoRequires} reads)`);
      }
      if (op.body && !bodyFirst) rawBody = await readBody(request, op.bodyKind ?? "json");

      const params = validate(op.params, await context?.params, "path") as Infer<P>;
      const query = (op.query ? validate(op.query, queryObject(request), "query") : undefined) as Infer<Q>;
      const body = validate(op.body, rawBody, "body") as Infer<B>;
      const ctx: ApiContext = {
        requestId,
        idempotencyKey: ids.idempotencyKey,
        idempotencyScope: `${credential.id}:${permissionsTag(credential.permissions)}`,
        credential,
        tenantId: credential.tenantId,
        environment,
        actor: { type: credential.kind, id: credential.id, label: credential.label },
      };
      const call = () => handler({ ctx, params, query, body, request });

      const idempotent = op.method === "POST" && (op.idempotent ?? true) === true && ids.idempotencyKey !== null;
      if (!idempotent) return toResponse(await call(), headers);
      // Keys are the credential's own: another credential of the tenant sending the same X-Request-Id (a tracing id,
      // seen in logs) runs its own request and never gets this one's response replayed. A replay skips the handler
      // and its checks, so the namespace also carries the credential's permissions: every access token of one OAuth
      // client shares its id, and a token narrowed to fewer scopes must not replay what a wider one was allowed to do.
      const scope = { tenantId: ctx.tenantId, environment, key: `${ctx.idempotencyScope}:${ids.idempotencyKey!}` };
      return await runIdempotent(scope, fingerprint(op.method, new URL(request.url).pathname, rawBody), call, headers, requestId, op);
    } catch (err) {
      requestId ||= refusedRequestId(headers);
      const response = errorResponse(err, requestId, headers, op.oauthErrors ?? false);
      if (response.status !== 503 || !op.unavailableBody) return response;
      headers.set("content-type", "application/json");
      const body = op.unavailableBody({ request, requestId, environment: hostEnvironment });
      return new Response(JSON.stringify(body), { status: 503, headers });
    }
  };
  return Object.assign(run, { operation: op as unknown as Operation });
}

async function runIdempotent(
  scope: IdempotencyScope,
  print: string,
  call: () => Promise<ApiResult>,
  headers: Headers,
  requestId: string,
  op: Operation,
): Promise<Response> {
  const claim = await claimIdempotencyKey(scope, print);
  // A response with a secret in it is kept sealed, bound to its record (a sealed body copied elsewhere does not open).
  const sealedAs = sealedName(scope);
  if (claim.replay) {
    headers.set("content-type", claim.replay.contentType);
    headers.set("idempotent-replayed", "true");
    for (const [name, value] of Object.entries(claim.replay.headers ?? {})) headers.set(name, value);
    const body = op.sealResponse && claim.replay.status < 300 ? openSecret(claim.replay.body, sealedAs) : claim.replay.body;
    return new Response(body, { status: claim.replay.status, headers });
  }
  const stored = async (response: Response, added: Record<string, string> = {}) => {
    const text = await response.clone().text();
    return {
      status: response.status,
      body: op.sealResponse && response.status < 300 ? sealSecret(text, sealedAs) : text,
      contentType: response.headers.get("content-type") ?? "application/json",
      headers: added,
    };
  };
  try {
    // The effect and its stored response commit together (lib/api/idempotency.ts, lib/db/transaction.ts).
    return await runInAmbientTransaction(
      rootDb(),
      async (tx) => {
        const result = await call();
        const response = toResponse(result, headers);
        await completeInTransaction(tx, scope, claim.lease, await stored(response, result.headers));
        return response;
      },
      requestTransactionOptions(),
    );
  } catch (err) {
    if (err instanceof LeaseLostError) {
      throw new ApiError("idempotency_in_progress", "Another request with this key took over; retry to get its response", {
        headers: { "retry-after": "1" },
      });
    }
    const response = errorResponse(err, requestId, headers, op.oauthErrors ?? false);
    // A 5xx forgets the key (a retry runs again), and so does a 400 — a validation failure is not stored (api-conventions.md):
    // the same request sent again is judged again, a corrected one is not a reused key. If even that fails, the lease
    // runs out and a retry takes over.
    if (response.status >= 500 || response.status === 400 || err instanceof TransientConflict) await releaseIdempotencyKey(scope, claim.lease).catch(() => undefined);
    else await completeIdempotencyKey(scope, claim.lease, await stored(response));
    return response;
  }
}

/** A request refused before its X-Request-Id was read (a malformed one): an id of the server's, so that every answer
 *  has one — made only then, not for every request. */
function refusedRequestId(headers: Headers): string {
  const id = newId("request");
  headers.set("x-request-id", id);
  return id;
}

/** Who is calling. From an address that has sent too many unknown credentials this minute (./auth-failures.ts), only a
 *  credential this process already knows to be valid is looked at; anything that needs a database lookup is refused. */
async function authenticate(request: Request, op: Operation, rawBody: unknown): Promise<Credential> {
  const failures = authFailures();
  const form = rawBody as Record<string, unknown> | undefined;
  const refusal = failures.refusal(request);
  if (refusal && needsCredentialLookup(request, op, form)) throw refusal;
  try {
    return op.auth === "oauth_client" ? await authenticateOAuthClient(request, form) : await authenticateBearer(request);
  } catch (err) {
    if (err instanceof ApiError && COUNTED_FAILURES.has(err.code) && !(err instanceof UncheckedClientCredentials)) throw (await failures.failed(request)) ?? err;
    throw err;
  }
}

/** A key or client secret that was checked and is unknown, revoked or wrong. Not a request without a credential, nor
 *  client credentials too malformed to check, nor an access token refused — a forged one costs no lookup (its signature
 *  fails first), an expired one is a token's life. */
const COUNTED_FAILURES = new Set<string>(["invalid_api_key", "invalid_client"]);

/** A public operation (no credential): only the request id, host check and error mapping apply. */
export function publicRoute(op: Operation, handler: (request: Request) => Promise<ApiResult>): RouteHandler {
  const run = async (request: Request): Promise<Response> => {
    const headers = new Headers({ "cache-control": "public, max-age=300" });
    let requestId = "";
    try {
      requestId = readRequestId(request).requestId;
      headers.set("x-request-id", requestId);
      environmentOf(request);
      return toResponse(await handler(request), headers);
    } catch (err) {
      return errorResponse(err, requestId || refusedRequestId(headers), headers, false);
    }
  };
  return Object.assign(run, { operation: op });
}

/** A short, stable tag of a permission set: the same permissions in any order give the same tag. */
function permissionsTag(permissions: readonly string[]): string {
  return createHash("sha256").update([...new Set(permissions)].sort().join(" ")).digest("hex").slice(0, 16);
}

function toResponse(result: ApiResult, headers: Headers): Response {
  for (const [name, value] of Object.entries(result.headers ?? {})) headers.set(name, value);
  headers.set("content-type", "application/json");
  const text = result.body instanceof JsonText ? result.body.text : JSON.stringify(result.body);
  return new Response(text, { status: result.status ?? 200, headers });
}

function addDeprecationHeaders(headers: Headers, { successor, since }: { successor: string; since: string }): void {
  headers.set("deprecation", deprecationHeader(since));
  headers.set("link", `<${successor}>; rel="successor-version"`);
  headers.set("warning", `299 - "Deprecated: use ${successor}"`);
}
