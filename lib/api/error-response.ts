import { Prisma } from "@prisma/client";
import { isDatabaseTimeout, isDatabaseUnavailable, isTransactionConflict, reportDatabaseDown } from "@/lib/db/availability";
import { ZodError } from "zod";
import { DomainError, TransientConflict, type DomainErrorCode } from "@/lib/errors";
import { log } from "@/lib/log";
import { AuthorityError } from "@/lib/payroll/authority/types";
import { ApiError, type ErrorCode } from "./errors";
import { problemResponse, toProblem } from "./problem";
import { fieldErrors } from "./request-input";

// The one error mapper: anything thrown below the wrapper becomes one problem+json response.
// Unknown errors are logged with the request id and answered with a generic 500 — never a stack trace.

// Every domain code must be an API code (compile-time check).
const DOMAIN_TO_API: Record<DomainErrorCode, ErrorCode> = {
  not_found: "not_found",
  conflict: "conflict",
  validation_error: "validation_error",
  forbidden: "forbidden",
  invalid_client: "invalid_client",
  invalid_grant: "invalid_grant",
  invalid_scope: "invalid_scope",
  unsupported_grant_type: "unsupported_grant_type",
  invalid_request: "invalid_request",
  invalid_transition: "invalid_transition",
  duplicate_document: "duplicate_document",
  invalid_document: "invalid_document",
  product_rule_violation: "product_rule_violation",
  payroll_link_required: "payroll_link_required",
  fee_above_cap: "fee_above_cap",
  cet_above_ceiling: "cet_above_ceiling",
  invalid_cursor: "invalid_cursor",
  margin_query_required: "margin_query_required",
  margin_query_expired: "margin_query_expired",
  margin_query_refused: "margin_query_refused",
  insufficient_margin: "insufficient_margin",
  payroll_source_unavailable: "payroll_source_unavailable",
  endorsement_required: "endorsement_required",
  collection_not_configured: "collection_not_configured",
  contract_not_active: "contract_not_active",
  contract_not_assigned: "contract_not_assigned",
  open_installments_due: "open_installments_due",
  insufficient_credit: "insufficient_credit",
  disbursement_date_passed: "disbursement_date_passed",
  batch_too_large: "batch_too_large",
  idempotency_in_progress: "idempotency_in_progress",
  idempotency_key_reused: "idempotency_key_reused",
};

export function toApiError(err: unknown, requestId: string): ApiError {
  if (err instanceof ApiError) return err;
  // A race lost before anything changed: the same 409 `conflict`, marked retryable with a Retry-After, so a client can
  // tell "send it again" from a conflict that stays (a unique value taken, a state that does not allow it).
  if (err instanceof TransientConflict) return new ApiError("conflict", err.message, { extra: { ...err.details, retryable: true }, headers: { "retry-after": "1" } });
  if (err instanceof DomainError) return new ApiError(DOMAIN_TO_API[err.code], err.message, { extra: err.details });
  if (err instanceof ZodError) {
    return new ApiError("validation_error", "One or more fields are invalid", { errors: fieldErrors(err, "body") });
  }
  if (err instanceof AuthorityError) return authorityError(err);
  if (isDatabaseUnavailable(err)) {
    reportDatabaseDown(err); // logged once per outage, not once per request
    return unavailable();
  }
  if (isDatabaseTimeout(err)) {
    log().warn({ err: (err as Error)?.message, request_id: requestId }, "database statement or transaction timed out");
    return new ApiError("service_unavailable", "The database did not answer in time; retry with backoff", {
      headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
      extra: { retryable: true },
    });
  }
  if (isTransactionConflict(err)) {
    // Logged: a deadlock means two paths take locks in different orders — worth finding, even answered as a 503.
    log().warn({ err: err instanceof Error ? err.message : String(err), request_id: requestId }, "transaction ended by a deadlock or serialization failure");
    return new ApiError("service_unavailable", "The database rolled this request's transaction back to let a concurrent one go on (a deadlock or a serialization failure); retry", {
      headers: { "retry-after": "1" },
      extra: { retryable: true },
    });
  }
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    if (err.code === "P2002") return new ApiError("conflict", "A resource with the same unique value already exists");
    if (err.code === "P2025") return new ApiError("not_found");
  }
  log().error({ err, request_id: requestId }, "unhandled error in /v1 handler");
  return new ApiError("internal_error", "An internal error occurred; quote the request_id when contacting support");
}

/** The payroll authority could not answer: 502/503/504 with `retryable` (every authority call is idempotent). */
function authorityError(err: AuthorityError): ApiError {
  const code = `authority_${err.kind}` as const;
  const retryAfter = err.retryAfterSeconds ?? (err.kind === "timeout" || err.kind === "bad_response" ? undefined : RETRY_AFTER_SECONDS);
  return new ApiError(code, err.message, {
    headers: retryAfter !== undefined ? { "retry-after": String(retryAfter) } : undefined,
    extra: { retryable: err.retryable },
  });
}

/** Seconds a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 5;

export function unavailable(): ApiError {
  return new ApiError("service_unavailable", "The database is unavailable; retry with backoff", {
    headers: { "retry-after": String(RETRY_AFTER_SECONDS) },
    extra: { retryable: true },
  });
}

/** `fieldMessage`: translates each field error's message (the panel in pt-BR); as sent by default. */
export function errorResponse(err: unknown, requestId: string, headers: Headers, oauth: boolean, fieldMessage?: (message: string) => string): Response {
  let error = toApiError(err, requestId);
  if (oauth && error.code === "validation_error") {
    error = new ApiError("invalid_request", error.errors?.map((e) => `${e.param}: ${e.message}`).join("; "), {
      errors: error.errors,
    });
  }
  for (const [name, value] of Object.entries(error.headers ?? {})) headers.set(name, value);
  const problem = toProblem(error, requestId);
  if (fieldMessage && Array.isArray(problem.errors)) problem.errors = problem.errors.map((e) => ({ ...e, message: fieldMessage(e.message) }));
  if (!oauth) return problemResponse(problem, headers);
  // The token endpoint answers RFC 6749 §5.2 errors: `application/json` with `error` and `error_description`
  // (OAuth2 client libraries refuse any other media type and would hide the code); the problem fields stay beside.
  Object.assign(problem, { error: oauthErrorCode(error), error_description: error.message });
  const response = problemResponse(problem, headers);
  response.headers.set("content-type", "application/json");
  return response;
}

/** RFC 6749 §5.2 defines the token endpoint's `error` codes; ours that are not among them (a wrong media type, a body
 *  too large, another tenant's id, a rate limit) are `invalid_request` to an OAuth2 client library — the precise one
 *  stays in the problem's `code` beside it — and the server's own failures `server_error` or, when retrying helps,
 *  `temporarily_unavailable` (the codes §4.1.2.1 gives for them). */
const OAUTH_ERRORS: ReadonlySet<string> = new Set(["invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope"]);

function oauthErrorCode(error: ApiError): string {
  if (OAUTH_ERRORS.has(error.code)) return error.code;
  if (error.status === 503) return "temporarily_unavailable";
  return error.status >= 500 ? "server_error" : "invalid_request";
}
