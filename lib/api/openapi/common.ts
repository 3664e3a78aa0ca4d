import { z } from "zod";
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
    error: z.string().optional().meta({ description: "Token endpoint only: the RFC 6749 error code." }),
    error_description: z.string().optional().meta({ description: "Token endpoint only: RFC 6749 description." }),
  })
  .meta({
    id: "Problem",
    description: "RFC 9457 problem details; the single error shape of the API (`application/problem+json`).",
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

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid request: `validation_error` (with `errors`; also NUL, ill-formed Unicode or nesting deeper than 32 levels anywhere in the body or query), `invalid_json`, `invalid_encoding` (body not UTF-8), `invalid_url`, `invalid_request_id`, `invalid_cursor`, `invalid_document` (CPF/CNPJ, with `reason`), `product_rule_violation` and the product rules' codes.",
  401: "Missing, invalid, revoked or expired credential, or a credential of the other environment (`environment_mismatch`).",
  403: "X-Tenant-Id missing or not the credential's tenant, or the credential lacks the permission.",
  404: "Not found — also for another tenant's or environment's objects.",
  409: "Conflict: `invalid_transition` (with `current_status`), `duplicate_document`, or the same idempotency key still in flight (`idempotency_in_progress`).",
  413: "Body over 1 MiB.",
  415: "Content-Type not supported.",
  421: "The host is neither the sandbox nor the production base address.",
  422: "Idempotency key reused with a different request (`idempotency_key_reused`).",
  429: "Rate limit exceeded; retry after `Retry-After` seconds with exponential backoff.",
  500: "Internal error (no details are exposed).",
  503: "`service_unavailable`: the database is unreachable (`retryable: true`); retry after `Retry-After` seconds, on POST with the same `X-Request-Id`.",
};
