import { OpenApiGeneratorV31, OpenAPIRegistry, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ALL_PERMISSIONS, type FinePermission } from "@/lib/auth/permissions";
import { getEnv } from "@/lib/env";
import { API_VERSION } from "@/lib/version";
import { EVENT_CATALOG, envelopeSchema } from "@/lib/webhooks/event-catalog";
import { MAX_ATTEMPTS } from "@/lib/webhooks/retry-schedule";
import { OPERATIONS } from "../operations";
import { webhookExample } from "../operations/event-examples";
import { exampleFor } from "../operations/example-registry";
import { REQUEST_EXAMPLES } from "../operations/request-examples";
import type { Operation } from "../operation";
import { PROVIDER_SIGNATURE_CHALLENGE } from "../provider-route";
import { REQUEST_ID } from "../request-input";
import { ERROR_DESCRIPTIONS, ProblemSchema, problemExample } from "./common";
import { addIntegerFormats } from "./integer-formats";

// The OpenAPI 3.1 document, generated from the same operations and zod schemas the routes enforce.

const COMMON_ERRORS = [400, 401, 403, 421, 429, 500, 503];

/** Headers on error answers: when to come back (429, 503, and 409 `idempotency_in_progress`). */
const retryAfter = { "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" as const } } };
const ERROR_HEADERS: Record<number, Record<string, { description: string; schema: { type: "integer" } }>> = {
  409: { "Retry-After": { description: "With `idempotency_in_progress`: seconds until the first request's lease ends.", schema: { type: "integer" } } },
  429: retryAfter,
  503: retryAfter,
};
/** Every answer carries the request id. The rate limit is charged as soon as the credential is known (lib/api/route.ts:
 *  right after authentication, before the tenant and permission checks and before the body is read), so every answer
 *  after it — a 403 for another tenant or a missing permission, a body's 400, 413 or 415, a 404, 409 or 422 — carries
 *  the X-RateLimit-* headers too. Answers given before the credential is checked do not: 401 (which says how to
 *  authenticate), 421, a 400 for an invalid X-Request-Id, a sandbox-only operation's 404 on the production address,
 *  and the token endpoint's body errors (it reads its body first: the client's credentials are in it). */
function errorHeaders(op: Operation, status: number): Record<string, { description: string; schema: { type: "integer" | "string" } }> | undefined {
  // The only unauthenticated 401: a provider notification's `invalid_signature`.
  if (op.auth === "none") return status === 401 ? { "WWW-Authenticate": { description: `\`${PROVIDER_SIGNATURE_CHALLENGE}\`.`, schema: { type: "string" } } } : ERROR_HEADERS[status];
  const requestId = { "X-Request-Id": rateLimitHeaders["X-Request-Id"] };
  if (status === 401) {
    const scheme = op.auth === "oauth_client" ? "`Basic realm=\"credit-platform\", charset=\"UTF-8\"` (RFC 6749 §5.2 `invalid_client`)." : "`Bearer` (with `error=\"invalid_token\"` for a credential that is not valid).";
    return { ...requestId, "WWW-Authenticate": { description: scheme, schema: { type: "string" } } };
  }
  const bodyFirst = op.auth === "oauth_client";
  // Refused before the rate limit counts it (a 500 may carry them).
  if ([421, 500].includes(status) || (bodyFirst && [413, 415].includes(status))) return requestId;
  if (status === 400 || (status === 404 && op.sandboxOnly)) return { ...countedIfAuthenticated(status, bodyFirst), ...(ERROR_HEADERS[status] ?? {}), ...replayedOn(op, status) };
  return { ...rateLimitHeaders, ...(ERROR_HEADERS[status] ?? {}), ...replayedOn(op, status) };
}

/** The rate-limit headers of an answer that may also be given before the credential is checked (and then lacks them). */
function countedIfAuthenticated(status: number, bodyFirst: boolean): typeof rateLimitHeaders {
  const body = "; a body that cannot be read: not JSON or not UTF-8, a NUL, ill-formed Unicode, nesting deeper than 32 levels, a form parameter sent twice";
  const before = status === 400 ? `an invalid X-Request-Id or Idempotency-Key${bodyFirst ? body : ""}` : "this sandbox-only operation called on the production address";
  const note = ` Absent when the request was refused before its credential was checked (${before}).`;
  return Object.fromEntries(
    Object.entries(rateLimitHeaders).map(([name, header]) => [name, name === "X-Request-Id" ? header : { ...header, description: header.description + note }]),
  ) as typeof rateLimitHeaders;
}

/** On a deprecated operation's answers, and where a deprecated field was used (`deprecationHeaders`). */
const deprecationHeaders = {
  Deprecation: { description: "RFC 9745: `@` and the Unix time since when what was used is deprecated (its release's date).", schema: { type: "string" as const } },
  Link: { description: "The successor: `<…>; rel=\"successor-version\"` (or `rel=\"deprecation\"`, this document, for a deprecated field).", schema: { type: "string" as const } },
  Warning: { description: "`299 - \"…\"`: what is deprecated and what to use.", schema: { type: "string" as const } },
};

const replayedHeader = {
  "Idempotent-Replayed": { description: "`true` when this is the stored response of an earlier request with the same X-Request-Id (nothing was applied again).", schema: { type: "string" as const, enum: ["true"] } },
};

/** Error answers the wrapper never stores (lib/api/route.ts runIdempotent): refused before the handler runs (401, 413,
 *  415, 421, 429) or a 400, which releases the key; 5xx release it too. */
const NEVER_STORED = [400, 401, 413, 415, 421, 429];

/** A stored 4xx (the handler's 403, 404, 409 or 422) is replayed like a 2xx, with `Idempotent-Replayed: true`. Only where
 *  the wrapper stores answers: not an `own` operation's (the batch replays its finished batch only). */
function replayedOn(op: Operation, status: number): Partial<typeof replayedHeader> {
  if (op.method !== "POST" || (op.idempotent ?? true) !== true || status >= 500 || NEVER_STORED.includes(status)) return {};
  return {
    "Idempotent-Replayed": {
      ...replayedHeader["Idempotent-Replayed"],
      description: "`true` when this is the stored answer of an earlier request with the same X-Request-Id: the handler's 4xx answers (all but a 400) are stored and replayed like its 2xx. Absent on a first answer, and on a refusal before the handler (a 403 for the tenant or permission, a 409 or 422 about the key itself).",
    },
  };
}

const rateLimitHeaders = {
  "X-RateLimit-Limit": { description: "Requests allowed per minute for this tenant and environment.", schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window.", schema: { type: "integer" as const } },
  "X-RateLimit-Reset": { description: "Unix epoch second at which the window resets.", schema: { type: "integer" as const } },
  "X-Request-Id": { description: "Your X-Request-Id echoed, or one generated for this request.", schema: { type: "string" as const } },
};

/** X-Request-Id and Idempotency-Key as lib/api/request-input.ts checks them (its REQUEST_ID, `^[…]{1,N}$`): the same
 *  pattern, and its N as maxLength. */
const REQUEST_ID_MAX_LENGTH = (() => {
  const max = Number(/\{1,(\d+)\}\$$/.exec(REQUEST_ID.source)?.[1]);
  if (!Number.isInteger(max)) throw new Error(`REQUEST_ID (${REQUEST_ID.source}) no longer ends in {1,N}$: say its maximum length here`);
  return max;
})();
const requestIdSchema = () => z.string().regex(REQUEST_ID).max(REQUEST_ID_MAX_LENGTH);
const REQUEST_ID_RULE = `1–${REQUEST_ID_MAX_LENGTH} characters of A–Z, a–z, 0–9, \`.\`, \`_\`, \`:\`, \`-\` (otherwise 400 \`invalid_request_id\`).`;

function requestHeaders(op: Operation) {
  const headers: z.ZodType[] = [];
  if (op.auth === "bearer") {
    headers.push(z.string().meta({ param: { name: "X-Tenant-Id", in: "header", required: true }, description: "Your tenant's id; must be the credential's tenant.", example: "ten_01JD0000000000000000000000" }));
  }
  const idempotent = op.method === "POST" && op.idempotent !== false;
  const requestIdText = op.idempotent === "own"
    ? "Request id for tracing and this operation's idempotency key (UUID recommended): repeating it replays what was done and completes what was not (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential (and its permissions): another credential's identical id runs its own request."
    : idempotent
    ? "Request id for tracing and the idempotency key (UUID recommended). Repeating it within 24 h with the same credential replays the first response (`Idempotent-Replayed: true`); with a different request: 422; while the first is in flight: 409. Keys are per credential: another credential's identical id runs its own request."
    : "Request id for tracing (echoed in the answer's X-Request-Id); this operation is not replayed by it.";
  headers.push(requestIdSchema().optional().meta({ param: { name: "X-Request-Id", in: "header" }, description: `${requestIdText} ${REQUEST_ID_RULE}`, example: "5f0c6f7e-2a52-4a8e-9f1e-7d2b6c1f0a11" }));
  if (idempotent) {
    headers.push(requestIdSchema().optional().meta({ param: { name: "Idempotency-Key", in: "header" }, description: `Synonym of X-Request-Id for idempotency; if both are sent they must be equal. ${REQUEST_ID_RULE}` }));
  }
  for (const own of op.headers ?? []) {
    const schema = own.required ? z.string() : z.string().optional();
    headers.push(schema.meta({ param: { name: own.name, in: "header", required: own.required }, description: own.description, ...(own.example ? { example: own.example } : {}) }));
  }
  return headers;
}

function routeConfig(op: Operation): RouteConfig {
  const mediaType = op.bodyKind === "form" ? "application/x-www-form-urlencoded" : "application/json";
  // Without a credential (the document itself, the provider's signed notifications): the operation's own errors,
  // and a body's 400, 413 and 415.
  const unauthenticated = [...new Set([421, 500, ...(op.errors ?? []), ...(op.body ? [400, 413, 415] : [])])].sort();
  const errors = op.auth === "none" ? unauthenticated : [...new Set([...COMMON_ERRORS, ...(op.errors ?? []), ...(op.body ? [413, 415] : []), ...(op.method === "POST" && op.idempotent !== false ? [409, 422] : [])])].sort();
  const responses: RouteConfig["responses"] = {};
  for (const [status, r] of Object.entries(op.responses)) {
    const example = exampleFor(op, Number(status));
    const code = Number(status);
    // Health's own 503 (the database is down) is answered before the rate limit counts anything.
    const headers =
      code >= 400
        ? code === 503 && op.unavailableBody
          ? { "X-Request-Id": rateLimitHeaders["X-Request-Id"], ...retryAfter }
          : errorHeaders(op, code)
        : op.auth === "none"
          ? undefined
          : { ...rateLimitHeaders, ...(op.method === "POST" && op.idempotent !== false ? replayedHeader : {}), ...(op.deprecated || op.deprecationHeaders ? deprecationHeaders : {}) };
    responses[status] = {
      description: r.description,
      headers,
      content: r.schema ? { "application/json": { schema: r.schema, ...(example !== undefined ? { example } : {}) } } : undefined,
    };
  }
  for (const status of errors) {
    if (responses[String(status)]) continue; // the operation documents this status itself (health's 503)
    const headers = errorHeaders(op, status);
    // The token endpoint's errors are RFC 6749 §5.2 `application/json` (problem fields beside `error`): no problem example.
    const example = op.oauthErrors ? undefined : problemExample(status);
    responses[String(status)] = {
      description: op.errorNotes?.[status] ?? ERROR_DESCRIPTIONS[status] ?? "Error",
      ...(headers ? { headers } : {}),
      content: { [op.oauthErrors ? "application/json" : "application/problem+json"]: { schema: ProblemSchema, ...(example ? { example } : {}) } },
    };
  }
  return {
    method: op.method.toLowerCase() as RouteConfig["method"],
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    description: op.permission
      ? `${op.description ?? ""}\n\nRequires permission \`${op.permission}\`${op.alsoRequires ? ` and \`${op.alsoRequires}\` (the answer carries what it reads)` : ""}.`.trim()
      : op.description,
    tags: op.tags,
    deprecated: op.deprecated ? true : undefined,
    security: op.auth === "bearer" ? [{ ApiKey: [] }, { OAuth2: [op.permission, op.alsoRequires].filter((p): p is FinePermission => Boolean(p)) }] : [],
    request: {
      // Operations declare params/query as zod objects; the library's type wants ZodObject specifically.
      params: op.params as never,
      query: op.query as never,
      headers: requestHeaders(op),
      // A body whose every field is optional (submit's `margin_query_id`, cancel's `reason`) may be left out.
      body: op.body ? { required: !op.body.safeParse({}).success, content: { [mediaType]: { schema: op.body, ...(REQUEST_EXAMPLES[op.operationId] !== undefined ? { example: REQUEST_EXAMPLES[op.operationId] } : {}) } } } : undefined,
    },
    responses,
  };
}

// The `webhooks` section: one entry per event type, the request we send (Standard Webhooks headers, the
// envelope with the event's object as `data`) and what we expect back.
const webhookHeaders = [
  z.string().meta({ param: { name: "webhook-id", in: "header", required: true }, description: "The event id (`evt_…`): the same in every attempt; deduplicate on it.", example: "evt_01JDQ9G1H2J3K4M5N6P7Q8R9S0" }),
  z.string().meta({ param: { name: "webhook-timestamp", in: "header", required: true }, description: "When this attempt was signed, Unix seconds; refuse ones far from your clock (5 min) against replays.", example: "1764594720" }),
  z.string().meta({
    param: { name: "webhook-signature", in: "header", required: true },
    description: "`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret (the bytes after `whsec_`, base64-decoded); space-separated, two during a secret rotation's grace period. Verify with any Standard Webhooks library.",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
];

function webhookConfig(event: (typeof EVENT_CATALOG)[number]): RouteConfig {
  return {
    method: "post",
    path: event.type,
    operationId: `webhook_${event.type.replace(/\./g, "_")}`,
    summary: event.type,
    description:
      `${event.summary}\n\nPOSTed to each enabled endpoint subscribed to \`${event.type}\` (or \`*\`) in the event's environment. Only a 2xx ` +
      `within the configured timeout (10 s by default) counts; redirects are not followed; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h (six times), ±20% ` +
      `jitter — ${MAX_ATTEMPTS} attempts over about 3 days; a 429 or 502/503/504 with \`Retry-After\` waits at least that long (at most 10 h). A 410 disables the endpoint. At least once, in no promised order: deduplicate on \`webhook-id\`.`,
    tags: ["Webhooks"],
    // We call you: no credential of yours is involved; the signature headers authenticate us.
    security: [],
    request: { headers: webhookHeaders, body: { required: true, content: { "application/json": { schema: envelopeSchema(event), example: webhookExample(event.type) } } } },
    responses: {
      200: { description: "Any 2xx acknowledges the event (the body is ignored; up to 4 KiB is kept in the delivery log)." },
      410: { description: "Gone: the endpoint is disabled and receives nothing more until enabled again." },
    },
  };
}

let cached: Record<string, unknown> | undefined;

/** Every tag an operation uses, described (Redocly and Spectral require declared tags; a test checks). */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Platform: "Health check and this document.",
  Authentication: "OAuth2 client credentials and refresh tokens (RFC 6749); API keys come from the panel.",
  Customers: "People (CPF) and companies (CNPJ, alphanumeric included) who borrow.",
  Simulations: "Price and SAC schedules with IOF and CET, checked against each product's rules.",
  Proposals: "A customer's request for credit on frozen terms, through review and signature.",
  Contracts: "CCBs issued from signed proposals, with their installments.",
  Settlements: "Payoff quotes, full settlements and partial prepayments, one by one or in batches (1.3.0).",
  Assignments: "Portfolio assignment (cessão): contracts sold to an assignee at a discount rate or a price (1.4.0).",
  Installments: "Each installment's due date, amounts and status, with late charges as of any date.",
  Risk: "The documented scorecard: score, band, decision, reason codes and affordability, stored with its inputs (1.1.0).",
  Collection: "Boleto and Pix charges for installments, payments received and how each was allocated (1.2.0).",
  Sandbox: "Sandbox-only simulators (404 on the production address): the paying source's monthly repasse (1.4.0).",
  Webhooks: "Endpoints that receive events (Standard Webhooks signatures, retries for about 3 days), the events themselves and every delivery attempt (1.2.0).",
  Payroll: "The payroll-loan authority: margin queries, margin reservations and endorsements (averbação) (1.3.0; 1.4.0 fields).",
};

export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const env = getEnv();
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "ApiKey", {
    type: "http",
    scheme: "bearer",
    description: "An API key from the panel (Settings → API Keys): `sk_test_…` (sandbox) or `sk_live_…` (production). Send X-Tenant-Id too.",
  });
  registry.registerComponent("securitySchemes", "OAuth2", {
    type: "oauth2",
    description: "Client credentials (RFC 6749 §4.4). The access token is used like an API key, limited to its scopes.",
    flows: {
      clientCredentials: {
        tokenUrl: "/v1/auth/token",
        refreshUrl: "/v1/auth/token",
        scopes: Object.fromEntries(ALL_PERMISSIONS.map((p) => [p, p === "read" ? "Every <resource>:read" : p === "write" ? "Every <resource>:write" : p])),
      },
    },
  });
  for (const op of OPERATIONS) registry.registerPath(routeConfig(op));
  for (const event of EVENT_CATALOG) registry.registerWebhook(webhookConfig(event));
  const used = [...new Set(OPERATIONS.flatMap((op) => op.tags))];
  const generated = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    tags: used.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? "" })),
    info: {
      title: "Credit Platform API",
      version: API_VERSION,
      // The panel is where a tenant's admins manage keys and reach support for their integration.
      contact: { name: "Credit Platform API support", url: `${env.SANDBOX_BASE_URL}/login` },
      license: { name: "Proprietary: for tenants of the Credit Platform", identifier: "LicenseRef-Proprietary" },
      description:
        "Multi-tenant credit operations for the Brazilian market. Money is integer centavos (BRL); dates are " +
        "YYYY-MM-DD; timestamps ISO 8601 UTC. Every call carries `Authorization: Bearer <key or token>` and " +
        "`X-Tenant-Id`. The base address picks the environment. Rate limits: 100/min (sandbox), 1,000/min " +
        "(production) per tenant and environment. Errors are RFC 9457 problem details, also for what no " +
        "operation below answers: an unknown path is 404 `not_found`, a method the path lacks 405 " +
        "`method_not_allowed` with `Allow` (OPTIONS is 204 with `Allow`), bad percent-encoding 400 `invalid_url`, " +
        "a request that is not valid HTTP 400 `malformed_request`, headers over 16 KiB 431 `headers_too_large`.",
    },
    servers: [
      { url: env.SANDBOX_BASE_URL, description: "Sandbox" },
      { url: env.PRODUCTION_BASE_URL, description: "Production" },
    ],
  }) as unknown as Record<string, unknown>;
  // Every integer with a format (int32 only when bounded within 32 bits): money in centavos passes 2^31.
  cached = addIntegerFormats(structuredClone(generated));
  return cached;
}
