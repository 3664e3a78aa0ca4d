// One error class and one status table for the whole API (RFC 9457 problem details).
// Codes are stable and machine-readable; titles are the human summary. Add new codes here only.

export const ERROR_CODES = {
  validation_error: { status: 400, title: "The request is invalid" },
  invalid_json: { status: 400, title: "The body is not valid JSON" },
  invalid_url: { status: 400, title: "The URL is malformed" },
  malformed_request: { status: 400, title: "The request is not valid HTTP" },
  invalid_encoding: { status: 400, title: "The body's encoding is invalid" },
  invalid_request_id: { status: 400, title: "The request id header is invalid" },
  invalid_cursor: { status: 400, title: "The pagination cursor is invalid" },
  invalid_request: { status: 400, title: "The token request is invalid" },
  invalid_grant: { status: 400, title: "The grant is invalid, expired or revoked" },
  unsupported_grant_type: { status: 400, title: "The grant type is not supported" },
  invalid_scope: { status: 400, title: "The requested scope is invalid" },
  authentication_required: { status: 401, title: "Authentication is required" },
  invalid_api_key: { status: 401, title: "The API key is invalid or revoked" },
  invalid_token: { status: 401, title: "The access token is invalid, expired or revoked" },
  invalid_client: { status: 401, title: "Client authentication failed" },
  invalid_signature: { status: 401, title: "The notification signature is missing, invalid or too old" },
  environment_mismatch: { status: 401, title: "The credential belongs to another environment" },
  tenant_header_required: { status: 403, title: "The X-Tenant-Id header is required" },
  tenant_mismatch: { status: 403, title: "The credential does not belong to this tenant" },
  insufficient_permissions: { status: 403, title: "The credential lacks the required permission" },
  forbidden: { status: 403, title: "You are not allowed to do this" },
  cross_origin_request: { status: 403, title: "Cross-origin writes are refused" },
  not_found: { status: 404, title: "The resource was not found" },
  method_not_allowed: { status: 405, title: "The method is not allowed on this resource" },
  conflict: { status: 409, title: "The request conflicts with the current state" },
  tenant_changed: { status: 409, title: "The page shows another tenant than the active one: reload it" },
  invalid_transition: { status: 409, title: "The action is not allowed in the resource's current state" },
  duplicate_document: { status: 409, title: "A customer with this document already exists" },
  invalid_document: { status: 400, title: "The CPF or CNPJ is invalid" },
  product_rule_violation: { status: 400, title: "The terms break the product's rules" },
  payroll_link_required: { status: 400, title: "The product needs a customer with a matching payroll link" },
  fee_above_cap: { status: 400, title: "A fee exceeds the product's cap" },
  cet_above_ceiling: { status: 400, title: "The CET exceeds the product's ceiling" },
  margin_query_required: { status: 400, title: "Payroll products need a margin query of the customer" },
  margin_query_expired: { status: 422, title: "The margin query is no longer valid; query the margin again" },
  margin_query_refused: { status: 422, title: "The payroll authority refused the margin query" },
  insufficient_margin: { status: 422, title: "The available payroll margin does not cover the installment" },
  payroll_source_unavailable: { status: 422, title: "The benefit or employment link cannot take new deductions" },
  endorsement_required: { status: 409, title: "The payroll contract needs its endorsement first" },
  collection_not_configured: { status: 409, title: "Collection is not configured for this environment" },
  contract_not_active: { status: 409, title: "The contract is not active" },
  contract_not_assigned: { status: 409, title: "The contract is not assigned to this assignment" },
  open_installments_due: { status: 409, title: "Installments due by that date are open: pay them first or settle in full" },
  insufficient_credit: { status: 409, title: "The contract's credit does not cover the refund" },
  disbursement_date_passed: { status: 422, title: "The proposal's disbursement date has passed" },
  idempotency_in_progress: { status: 409, title: "A request with this idempotency key is still in progress" },
  payload_too_large: { status: 413, title: "The body is too large" },
  batch_too_large: { status: 413, title: "The batch has more items than allowed" },
  unsupported_media_type: { status: 415, title: "The content type is not supported" },
  request_timeout: { status: 408, title: "The request was not received in time" },
  misdirected_request: { status: 421, title: "This host does not serve the API" },
  idempotency_key_reused: { status: 422, title: "The idempotency key was used with a different request" },
  rate_limited: { status: 429, title: "Too many requests" },
  too_many_failed_authentications: { status: 429, title: "Too many failed authentications from this address" },
  headers_too_large: { status: 431, title: "The request's header fields are too large" },
  internal_error: { status: 500, title: "An internal error occurred" },
  service_unavailable: { status: 503, title: "The service is temporarily unavailable" },
  authority_bad_response: { status: 502, title: "The payroll authority gave an answer that could not be read" },
  authority_unavailable: { status: 503, title: "The payroll authority is unavailable" },
  authority_rate_limited: { status: 503, title: "The payroll authority is limiting our requests" },
  authority_circuit_open: { status: 503, title: "Calls to the payroll authority are paused after repeated failures" },
  authority_timeout: { status: 504, title: "The payroll authority did not answer in time" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export type FieldError = { param: string; in: "body" | "query" | "path" | "header"; message: string };

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;
  readonly extra?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    detail?: string,
    options: { errors?: FieldError[]; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(detail ?? ERROR_CODES[code].title);
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.errors = options.errors;
    this.headers = options.headers;
    this.extra = options.extra;
  }
}
