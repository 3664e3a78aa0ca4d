import { z } from "zod";
import { TokenRequest, TokenResponse } from "@/lib/auth/token-request";
import { HealthResponse, healthUnavailable, HealthUnavailableResponse } from "@/lib/platform/health";
import { defineOperation } from "../operation";

export const healthOperation = defineOperation({
  operationId: "getHealth",
  method: "GET",
  path: "/v1/health",
  summary: "Check the API, your credential and your environment",
  description:
    "Answers once the credential, tenant, environment and rate-limit checks pass. `environment` is the environment " +
    "of the base address used (spec §4 rule 1); `version` is the API's semantic version. While the database is " +
    "unavailable it answers 503 (`application/json`, `Retry-After`) with `status: \"database_unavailable\"`, so a " +
    "load balancer can take the instance out of rotation.",
  tags: ["Platform"],
  auth: "bearer",
  permission: null,
  unavailableBody: ({ request, requestId, environment }) =>
    healthUnavailable({ tenantHeader: request.headers.get("x-tenant-id"), environment, requestId }),
  responses: {
    200: {
      description: "The API is up and the credential works here.",
      schema: HealthResponse,
      example: { status: "ok", environment: "sandbox", version: "1.4.0", tenant: "ten_01JD0000000000000000000000" },
    },
    503: {
      description: "The database is unavailable (the credential cannot be checked): retry after `Retry-After` seconds.",
      schema: HealthUnavailableResponse,
    },
  },
});

export const tokenOperation = defineOperation({
  operationId: "createToken",
  method: "POST",
  path: "/v1/auth/token",
  summary: "Get an OAuth2 access token (client credentials) or rotate a refresh token",
  description:
    "Form-encoded (RFC 6749). `grant_type=client_credentials` authenticates the client (HTTP Basic or " +
    "`client_id`/`client_secret` in the form) and returns a 3600 s JWT access token plus a 30-day refresh token. " +
    "`grant_type=refresh_token` spends the given refresh token and returns a new pair; presenting a spent refresh " +
    "token revokes every token of that grant. `scope` narrows the scopes (default: all of the client's; on a refresh, all " +
    "of the grant's — a narrowed refresh narrows that access token only, the new refresh token keeps the grant's scope, RFC 6749 §6). " +
    "X-Tenant-Id is optional here (the client names the tenant); when sent it must match. Not idempotent: " +
    "token responses are never stored (`Cache-Control: no-store`). Errors carry RFC 6749 `error` and " +
    "`error_description` alongside the problem fields.",
  tags: ["Authentication"],
  auth: "oauth_client",
  permission: null,
  body: TokenRequest,
  bodyKind: "form",
  idempotent: false,
  oauthErrors: true,
  headers: [{ name: "X-Tenant-Id", required: false, description: "Optional: when sent, it must be the client's tenant (403 otherwise)." }],
  responses: {
    200: { description: "Tokens issued.", schema: TokenResponse },
  },
  errorNotes: {
    // lib/api/authenticate.ts checkEnvironment: a client is refused as RFC 6749 says, not with environment_mismatch.
    401:
      "`invalid_client` (RFC 6749 §5.2): the client is unknown or revoked, the secret is wrong, the credentials are missing or malformed, or sent by two methods — " +
      "and also a client of the other environment (a sandbox client on the production address or the reverse): never `environment_mismatch` here.",
  },
});

export const openapiOperation = defineOperation({
  operationId: "getOpenApiDocument",
  method: "GET",
  path: "/v1/openapi.json",
  summary: "This OpenAPI 3.1 document",
  description: "Public: no credential needed.",
  tags: ["Platform"],
  auth: "none",
  permission: null,
  responses: { 200: { description: "The OpenAPI document.", schema: z.record(z.string(), z.unknown()) } },
});

export const platformOperations = [healthOperation, tokenOperation, openapiOperation];
