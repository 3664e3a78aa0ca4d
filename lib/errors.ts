// Errors the domain layer throws. Services never speak HTTP: the /v1 wrapper maps each code to a status
// through lib/api/errors.ts (the codes are a subset of the API's codes, checked by the compiler there).
export const DOMAIN_ERROR_CODES = [
  "not_found",
  "conflict",
  "validation_error",
  "forbidden",
  "invalid_client",
  "invalid_grant",
  "invalid_scope",
  "unsupported_grant_type",
  "invalid_request",
  "invalid_transition",
  "duplicate_document",
  "invalid_document",
  "product_rule_violation",
  "payroll_link_required",
  "fee_above_cap",
  "cet_above_ceiling",
  "invalid_cursor",
  "margin_query_required",
  "margin_query_expired",
  "margin_query_refused",
  "insufficient_margin",
  "payroll_source_unavailable",
  "endorsement_required",
  "collection_not_configured",
  "contract_not_active",
  "contract_not_assigned",
  "open_installments_due",
  "insufficient_credit",
  "disbursement_date_passed",
  "batch_too_large",
  "idempotency_in_progress",
  "idempotency_key_reused",
] as const;

export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** A 409 that says "try again shortly" — something in flight, or a race lost before anything changed — rather than an
 *  outcome: an idempotent request's key is released, not stored, so the same X-Request-Id sent again runs again
 *  (a stored one would be replayed for 24 hours). */
export class TransientConflict extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("conflict", message, details);
  }
}

export const notFound = (what: string) => new DomainError("not_found", `${what} not found`);

/** A 400 `validation_error` about one body (or query) field that the schema alone cannot judge (it needs the database
 *  or another field): the same `errors[]` entry shape as schema failures. */
export const invalidField = (param: string, message: string, location: "body" | "query" = "body") =>
  new DomainError("validation_error", message, { errors: [{ param, in: location, message }] });
