import type { z } from "zod";
import { LOCALE_COOKIE, negotiateLocale, type Locale } from "@/i18n/locales";
import type { Actor } from "@/lib/audit/audit-log";
import { errorResponse } from "@/lib/api/error-response";
import { ApiError } from "@/lib/api/errors";
import { queryObject, readBodyText, readRequestId, rejectIllFormedText, validate } from "@/lib/api/request-input";
import { requestHost } from "@/lib/api/environment";
import { getEnv } from "@/lib/env";
import { newId } from "@/lib/ids";
import { checkSameOrigin } from "@/lib/security/same-origin";
import { canEraseCustomers, canIssueCharges, canManageCredentials, canManageMembers, canRecordRefunds, canReview, canWriteOff } from "@/lib/tenants/roles";
import { panelScope } from "./environment-param";
import { ptBrErrorMap, toPtBr } from "./field-messages-pt-br";
import { runPanelIdempotent } from "./panel-idempotency";
import { SCREEN_TENANT_HEADER } from "./screen-tenant-header";
import { currentPanelUser, type PanelUser } from "./session";

// The panel's internal JSON endpoints (app/api/panel/**): same-origin check on writes, session user, active
// tenant, role check, the text rules of /v1 on path, query and body, strict body, the same problem+json errors as /v1. Cross-site writes are refused before
// anything else (lib/security/same-origin.ts); the session cookie is also SameSite=Lax and writes require
// Content-Type: application/json. Field errors come in the panel's language (lib/panel/field-messages-pt-br.ts).

type Options<B extends z.ZodType | undefined> = {
  manageCredentials?: boolean;
  manageMembers?: boolean;
  review?: boolean;
  recordRefunds?: boolean;
  issueCharges?: boolean;
  writeOff?: boolean;
  eraseCustomers?: boolean;
  body?: B;
  /** The tenant switch itself: it may come from a page showing another tenant than the active one. */
  switchesTenant?: boolean;
  /** A POST that creates something: with an Idempotency-Key, a repeat replays the first answer (./panel-idempotency.ts). */
  idempotent?: boolean;
};

type Context<B> = {
  user: PanelUser;
  actor: Actor;
  body: B extends z.ZodType ? z.infer<B> : undefined;
  params: Record<string, string>;
  /** The query string, checked like the body (no NUL, well-formed Unicode); validate it with `parseQuery`. */
  query: Record<string, string | string[]>;
  /** `schema` applied to the query (or to `raw`, part of it): a 400 with field errors in the panel's language. */
  parseQuery: <T extends z.ZodType>(schema: T, raw?: Record<string, string | string[]>) => z.infer<T>;
  request: Request;
};

export function panelRoute<B extends z.ZodType | undefined = undefined>(
  options: Options<B>,
  handler: (ctx: Context<B>) => Promise<{ status?: number; body: unknown }>,
) {
  return async (request: Request, context: { params: Promise<Record<string, string>> }): Promise<Response> => {
    const requestId = newId("request");
    const headers = new Headers({ "cache-control": "no-store", "x-request-id": requestId });
    const language = fieldLanguage(request);
    try {
      if (request.method !== "GET" && request.method !== "HEAD") {
        const verdict = checkSameOrigin(request.headers, panelOrigins(request));
        if (!verdict.ok) throw new ApiError("cross_origin_request", `Refused: ${verdict.reason}`);
      }
      const user = await currentPanelUser();
      if (!user) throw new ApiError("authentication_required", "Sign in to the panel");
      const screen = request.headers.get(SCREEN_TENANT_HEADER);
      if (screen !== null && screen !== user.tenantId && !options.switchesTenant) {
        throw new ApiError("tenant_changed", "Another tab switched the active tenant: this page shows the previous one — reload it");
      }
      if (options.manageCredentials && !canManageCredentials(user.role)) {
        throw new ApiError("forbidden", "Only owners and admins manage these settings");
      }
      if (options.manageMembers && !canManageMembers(user.role)) throw new ApiError("forbidden", "Only owners invite, change or remove members");
      if (options.review && !canReview(user.role)) throw new ApiError("forbidden", "Viewers cannot approve or reject proposals");
      if (options.recordRefunds && !canRecordRefunds(user.role)) throw new ApiError("forbidden", "Only owners and admins record refunds");
      if (options.issueCharges && !canIssueCharges(user.role)) throw new ApiError("forbidden", "Viewers cannot issue charges");
      if (options.writeOff && !canWriteOff(user.role)) throw new ApiError("forbidden", "Only owners and admins write contracts off");
      if (options.eraseCustomers && !canEraseCustomers(user.role)) throw new ApiError("forbidden", "Only owners and admins erase a customer's data");
      const input = await readInput(options.body, request, context, language.errorMap);
      const { params, query } = input;
      const body = input.body as Context<B>["body"];
      const actor: Actor = { type: "user", id: user.userId, label: user.email };
      const parseQuery = <T extends z.ZodType>(schema: T, raw: Record<string, string | string[]> = query) => validate(schema, raw, "query", language.errorMap) as z.infer<T>;
      const call = () => handler({ user, actor, body, params, query, parseQuery, request });
      // The key as /v1 reads it (Idempotency-Key, or X-Request-Id; validated the same way).
      const key = options.idempotent && request.method === "POST" ? readRequestId(request).idempotencyKey : null;
      const result = key ? await runPanelIdempotent(panelScope(user, request), user.userId, key, request, body, call) : await call();
      if ("replayed" in result && result.replayed) headers.set("idempotent-replayed", "true");
      headers.set("content-type", "application/json");
      return new Response(JSON.stringify(result.body), { status: result.status ?? 200, headers });
    } catch (err) {
      return errorResponse(err, requestId, headers, false, language.message);
    }
  };
}

/** The panel's JSON endpoints without a session: an invitation link's acceptance, a password reset's request and its
 *  link's new password (a token is the credential, or nothing is revealed). The same origin check, text rules, strict
 *  body and error shape as panelRoute. */
export function publicPanelRoute<B extends z.ZodType>(
  options: { body: B },
  handler: (ctx: { body: z.infer<B>; params: Record<string, string>; request: Request }) => Promise<{ status?: number; body: unknown }>,
) {
  return async (request: Request, context: { params: Promise<Record<string, string>> }): Promise<Response> => {
    const requestId = newId("request");
    const headers = new Headers({ "cache-control": "no-store", "x-request-id": requestId });
    const language = fieldLanguage(request);
    try {
      const verdict = checkSameOrigin(request.headers, panelOrigins(request));
      if (!verdict.ok) throw new ApiError("cross_origin_request", `Refused: ${verdict.reason}`);
      const { params, body } = await readInput(options.body, request, context, language.errorMap);
      const result = await handler({ body: body as z.infer<B>, params, request });
      headers.set("content-type", "application/json");
      return new Response(JSON.stringify(result.body), { status: result.status ?? 200, headers });
    } catch (err) {
      return errorResponse(err, requestId, headers, false, language.message);
    }
  };
}

/** How field errors are worded for whoever sent the request: zod's messages and ours in pt-BR, or as written (English). */
function fieldLanguage(request: Request): { errorMap?: z.core.$ZodErrorMap; message?: (message: string) => string } {
  return panelLocale(request) === "pt-BR" ? { errorMap: ptBrErrorMap, message: toPtBr } : {};
}

async function readInput(
  schema: z.ZodType | undefined,
  request: Request,
  context: { params: Promise<Record<string, string>> },
  errorMap?: z.core.$ZodErrorMap,
) {
  let raw: unknown = undefined;
  if (request.method !== "GET") {
    if ((request.headers.get("content-type") ?? "").split(";")[0] !== "application/json") {
      throw new ApiError("unsupported_media_type", "Send Content-Type: application/json");
    }
    // Read as /v1 reads it: at most MAX_BODY_BYTES (413, declared or not, never buffered whole: some of these routes
    // answer anyone — a password reset, an invitation's acceptance), UTF-8 (400), then JSON.
    const text = await readBodyText(request);
    try {
      raw = JSON.parse(text) as unknown;
    } catch {
      throw new ApiError("invalid_json");
    }
  }
  // What /v1 checks before any schema or database sees it (lib/api/text-rules.ts): a NUL or a lone surrogate in a
  // path segment, the query or the body is a 400 here too, never a database error.
  const params = (await context.params) ?? {};
  rejectIllFormedText(params, "path");
  const query = queryObject(request);
  if (raw !== undefined) rejectIllFormedText(raw, "body");
  const body = validate(schema, raw, "body", errorMap);
  return { params, query, body };
}

/** Where links the panel hands out point (invitations, password resets): NEXTAUTH_URL when set, else the configured base
 *  address (sandbox or production) whose host this request came to — never a Host header as such, which a client
 *  writes (a reset link pointing at an attacker's host) — else the server's own address. */
export function panelBaseUrl(request: Request): string {
  const env = getEnv();
  if (env.NEXTAUTH_URL) return env.NEXTAUTH_URL;
  const host = requestHost(request);
  const known = [env.SANDBOX_BASE_URL, env.PRODUCTION_BASE_URL].map((base) => new URL(base)).find((base) => base.host.toLowerCase() === host);
  return known ? known.origin : new URL(request.url).origin;
}

/** The panel language of whoever sent the request (the language switch's cookie, else Accept-Language). */
export function panelLocale(request: Request): Locale {
  const cookie = (request.headers.get("cookie") ?? "")
    .split(";")
    .map((part) => part.trim().split("="))
    .find(([name]) => name === LOCALE_COOKIE)?.[1];
  return negotiateLocale(cookie, request.headers.get("accept-language"));
}

/** The panel's own origins: the host the request was addressed to (its Host, or X-Forwarded-Host and -Proto behind a
 *  trusted proxy — Next's request.url names the server's listening address, http://localhost:<port>, whatever the
 *  browser used) and the deployment's configured addresses (NEXTAUTH_URL, the sandbox and production base URLs).
 *  Without the first, every write from the real site address was refused unless NEXTAUTH_URL named it. */
function panelOrigins(request: Request): string[] {
  const env = getEnv();
  const url = new URL(request.url);
  const host = requestHost(request);
  const forwardedProto = env.TRUST_PROXY ? request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
  const scheme = forwardedProto === "https" || forwardedProto === "http" ? `${forwardedProto}:` : url.protocol;
  const configured = [env.NEXTAUTH_URL, env.SANDBOX_BASE_URL, env.PRODUCTION_BASE_URL].flatMap((base) => (base ? [new URL(base).origin] : []));
  return [...new Set([url.origin, ...(host ? [`${scheme}//${host}`] : []), ...configured])];
}
