import { z } from "zod";
import { REASONS as DOCUMENT_REASONS } from "@/lib/customers/document";
import { ERROR_CODES } from "../errors";

// Schemas shared by every operation in the OpenAPI document.

export const FieldErrorSchema = z
  .object({
    param: z.string().meta({ description: "The field, dotted for nested fields (e.g. `address.zip_code`)." }),
    in: z.enum(["body", "query", "path", "header"]),
    message: z.string(),
  })
  .meta({ id: "FieldError" });

export const ProblemSchema = z
  .object({
    type: z.string().meta({ description: "URN naming the problem type: `urn:credit-platform:problem:<code>`." }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(Object.keys(ERROR_CODES) as [string, ...string[]]).meta({ description: "Stable, machine-readable code." }),
    request_id: z.string().meta({ description: "The request id (X-Request-Id): quote it to support." }),
    errors: z.array(FieldErrorSchema).optional().meta({ description: "Validation errors, one per field." }),
    retryable: z.boolean().optional().meta({ description: "On 502, 503 and 504: whether repeating the request (after `Retry-After`, with the same X-Request-Id) may succeed. On a 409 `conflict`: `true` (with `Retry-After: 1`) when a race was lost before anything changed — a payment reached the contract while a charge was issued, a simulation's customer changed — and the same request sent again is judged again; absent on a conflict that stays." }),
    current_status: z.string().optional().meta({ description: "`invalid_transition`, `contract_not_active` and `contract_not_assigned`: the object's status now." }),
    allowed_actions: z.array(z.string()).optional().meta({ description: "`invalid_transition`: the actions its status allows that a client asks for, each by the endpoint of that name (never the platform's own: an expiry, a payment, a contract's issue)." }),
    reason: z.string().optional().meta({ description: `\`invalid_document\`: why the CPF/CNPJ is invalid (${Object.keys(DOCUMENT_REASONS).map((r) => `\`${r}\``).join(", ")}).` }),
    refusal: z
      .object({ code: z.string(), message: z.string() })
      .optional()
      .meta({ description: "`margin_query_refused`: the payroll authority's refusal as it gave it (e.g. `authorization_missing`)." }),
    error: z.string().optional().meta({ description: "Token endpoint only: the RFC 6749 error code." }),
    error_description: z.string().optional().meta({ description: "Token endpoint only: RFC 6749 description." }),
  })
  .catchall(z.unknown())
  .meta({
    id: "Problem",
    description:
      "RFC 9457 problem details; the single error shape of the API (`application/problem+json`). Some codes add members that " +
      "say more (RFC 9457 extension members): besides those listed, e.g. `contract_id`, `credit_balance`, `face_value`, " +
      "`max_items`; read them by the `code`.",
    example: {
      type: "urn:credit-platform:problem:validation_error",
      title: "The request is invalid",
      status: 400,
      detail: "One or more fields are invalid",
      code: "validation_error",
      request_id: "5f0c6f7e-2a52-4a8e-9f1e-7d2b6c1f0a11",
      errors: [{ param: "limit", in: "query", message: "Too big: expected number to be <=100" }],
    },
  });

/** One typical problem per status, as each error response's example (documentation viewers show it). */
const EXAMPLE_PROBLEMS: Record<number, { code: keyof typeof ERROR_CODES; detail: string; extra?: Record<string, unknown> }> = {
  400: { code: "validation_error", detail: "One or more fields are invalid", extra: { errors: [{ param: "limit", in: "query", message: "Too big: expected number to be <=100" }] } },
  401: { code: "invalid_api_key", detail: "The API key is invalid or revoked" },
  403: { code: "insufficient_permissions", detail: "This operation requires the customers:write permission" },
  404: { code: "not_found", detail: "Customer not found" },
  409: { code: "invalid_transition", detail: "Cannot approve a proposal in status draft", extra: { current_status: "draft", allowed_actions: ["submit", "cancel"] } },
  413: { code: "payload_too_large", detail: "The body is over 1 MiB" },
  415: { code: "unsupported_media_type", detail: "Send Content-Type: application/json" },
  421: { code: "misdirected_request", detail: "This host does not serve the API" },
  422: { code: "idempotency_key_reused", detail: "This X-Request-Id was used with a different request" },
  429: { code: "rate_limited", detail: "Rate limit of 100 requests per minute exceeded; retry after 12 s" },
  500: { code: "internal_error", detail: "An internal error occurred; quote the request id to support" },
  502: { code: "authority_bad_response", detail: "The payroll authority's answer could not be read", extra: { retryable: false } },
  503: { code: "service_unavailable", detail: "The database is unreachable; retry shortly", extra: { retryable: true } },
  504: { code: "authority_timeout", detail: "The payroll authority did not answer within 10 s", extra: { retryable: true } },
};

export function problemExample(status: number): Record<string, unknown> | undefined {
  const example = EXAMPLE_PROBLEMS[status];
  if (!example) return undefined;
  return {
    type: `urn:credit-platform:problem:${example.code}`,
    title: ERROR_CODES[example.code].title,
    status,
    detail: example.detail,
    code: example.code,
    request_id: "5f0c6f7e-2a52-4a8e-9f1e-7d2b6c1f0a11",
    ...example.extra,
  };
}

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes.",
  401: "Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`).",
  403: "X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission.",
  404: "Not found — also for another tenant's or environment's objects.",
  409: "Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, the same idempotency key still in flight (`idempotency_in_progress`), or `conflict` — with `retryable: true` and `Retry-After` when a race was lost before anything changed (send it again), without it when the conflict stays.",
  413: "Body over 1 MiB.",
  415: "Content-Type not supported.",
  421: "The host is neither the sandbox nor the production base address.",
  422: "Idempotency key reused with a different request (`idempotency_key_reused`).",
  502: "`authority_bad_response`: the payroll authority answered something that could not be read (`retryable: false`); nothing was recorded here — ask again later or contact support.",
  504: "`authority_timeout`: the payroll authority did not answer in time (`retryable: true`); repeat with the same X-Request-Id — what it may have done is recovered, never done twice.",
  429: "`rate_limited`: the tenant's rate limit for this environment is used up; retry after `Retry-After` seconds with exponential backoff. `too_many_failed_authentications`: this client address sent 60 unknown or revoked API keys or client secrets within a minute; until `Retry-After` seconds have passed, its requests with a key or client the server has not recently found valid are refused (access tokens are not affected).",
  500: "Internal error (no details are exposed).",
  503: "`service_unavailable`: the database is unreachable, or did not answer in time (a statement cancelled at its time limit, no free connection; `retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`. Operations that call the payroll authority also answer `authority_unavailable`, `authority_rate_limited` or `authority_circuit_open` (`retryable: true`).",
};
