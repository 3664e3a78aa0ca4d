import type { z } from "zod";
import type { FinePermission } from "@/lib/auth/permissions";

// An operation is the declarative description of one /v1 endpoint: the wrapper (route.ts) enforces it
// and the OpenAPI document (openapi/document.ts) publishes it, from the same zod schemas.

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export type OperationResponse = { description: string; schema?: z.ZodType; example?: unknown };

export type Operation<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> = {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/customers/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** `bearer`: API key or access token + X-Tenant-Id. `oauth_client`: the token endpoint's client auth.
   *  `none`: public (only the OpenAPI document itself). */
  auth: "bearer" | "oauth_client" | "none";
  /** Required permission; null when any valid credential may call (e.g. health). */
  permission: FinePermission | null;
  /** A second permission required beside it, for an answer that carries what that permission reads: an update that
   *  answers the whole object (a customers:write key without customers:read read any customer by PATCHing nothing), a
   *  risk assessment (the customer's birth date and income) or a margin query (the benefit number, its amount). */
  alsoRequires?: FinePermission;
  params?: P;
  query?: Q;
  body?: B;
  bodyKind?: "json" | "form";
  /** POSTs are idempotent by default (X-Request-Id / Idempotency-Key: the wrapper stores and replays the response);
   *  false opts out (token endpoint); "own": the handler replays by X-Request-Id itself (the settlement batch, item by
   *  item) — documented as idempotent (SDKs send it again), not stored by the wrapper. */
  idempotent?: boolean | "own";
  /** The response carries a secret shown once (a webhook signing secret): the copy kept for idempotent replays is
   *  sealed (AES-256-GCM, lib/security/secret-box.ts), never stored in plaintext. */
  sealResponse?: boolean;
  /** Errors also carry RFC 6749 `error` / `error_description`, and responses are `no-store`. */
  oauthErrors?: boolean;
  /** Deprecated since `since` (the release's date, YYYY-MM-DD): answered with RFC 9745's `Deprecation: @<epoch>`,
   *  `Link: <successor>; rel="successor-version"` and a `Warning`. */
  deprecated?: { successor: string; since: string };
  /** Not deprecated itself, but answers with the deprecation headers when a deprecated field is used (`tax_rate`). */
  deprecationHeaders?: boolean;
  /** Exists only on the sandbox address: the production address answers 404 before authentication. */
  sandboxOnly?: boolean;
  /** The body of this operation's 503 when the database is unavailable, instead of the problem document
   *  (health: the spec's fields with a status naming the unavailable dependency). */
  unavailableBody?: (input: { request: Request; requestId: string; environment: "sandbox" | "production" | null }) => unknown;
  responses: Record<number, OperationResponse>;
  /** Error statuses this operation can answer besides the common ones (400, 401, 403, 429, 500). */
  errors?: number[];
  /** Request headers of its own (besides X-Tenant-Id, X-Request-Id and Idempotency-Key), for the document. */
  headers?: { name: string; description: string; required: boolean; example?: string }[];
  /** What this operation's answer with a status means, where it says more than the shared text (the codes it uses). */
  errorNotes?: Partial<Record<number, string>>;
};

/** RFC 9745's Deprecation value: `@` and the Unix time from which something is deprecated (its release's day, UTC). */
export function deprecationHeader(since: string): string {
  return `@${Date.parse(`${since}T00:00:00Z`) / 1000}`;
}

export function defineOperation<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(op: Operation<P, Q, B>): Operation<P, Q, B> {
  return op;
}
