import { ApiError, ConnectionError, CreditPlatformError, TimeoutError, type Problem } from "./errors";
import { OPERATIONS, type OperationId } from "./operations";
import type { operations } from "./schema";

// The client: one generic request path (credentials, tenant, request ids, retries, timeouts, errors) and one
// method per operation of the OpenAPI document, named by its operationId and typed from it. Nothing here knows
// a resource: new operations arrive by regenerating src/operations.ts and src/schema.ts.

export const SDK_VERSION = "1.4.0";

type Op<K extends OperationId> = operations[K];
type Content<R> = R extends { content: { "application/json": infer J } } ? J : undefined;
type PathOf<K extends OperationId> = Op<K> extends { parameters: { path: infer P } } ? P : never;
type QueryOf<K extends OperationId> = Op<K> extends { parameters: { query?: infer Q } } ? Q : never;
type BodyOf<K extends OperationId> = NonNullable<Op<K>["requestBody"]> extends { content: infer C } ? C[keyof C] : never;
type Responses<K extends OperationId> = Op<K>["responses"];
/** What a successful call returns: the 200, 201 or 202 body. */
export type ResultOf<K extends OperationId> = 200 extends keyof Responses<K>
  ? Content<Responses<K>[200]>
  : 201 extends keyof Responses<K>
    ? Content<Responses<K>[201]>
    : 202 extends keyof Responses<K>
      ? Content<Responses<K>[202]>
      : undefined;

export type RequestOptions = {
  /** The X-Request-Id of a POST, its idempotency key (default: a random UUID), the same on every retry of this call.
   *  Every error of the call carries it (`err.requestId`): on an unknown outcome, send the call again with it. */
  requestId?: string;
  /** This call's timeout per attempt, ms (default: the client's). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Extra request headers for this call, e.g. `{ "X-Provider-Signature": "…" }` for `receiveProviderNotification`. The
   *  headers the SDK sets itself (Accept, Authorization, Content-Length, Content-Type, Host, User-Agent, X-Request-Id —
   *  give `requestId` — and X-Tenant-Id) cannot be given here: the call throws a `CreditPlatformError`. */
  headers?: Record<string, string>;
};

export type CallArgs<K extends OperationId> = ([PathOf<K>] extends [never] ? { path?: undefined } : { path: PathOf<K> }) &
  ([QueryOf<K>] extends [never] ? { query?: undefined } : { query?: QueryOf<K> }) &
  ([BodyOf<K>] extends [never] ? { body?: undefined } : undefined extends Op<K>["requestBody"] ? { body?: BodyOf<K> } : { body: BodyOf<K> }) &
  RequestOptions;

type RequiredKeys<T> = { [P in keyof T]-?: object extends Pick<T, P> ? never : P }[keyof T];
type ArgsTuple<K extends OperationId> = [RequiredKeys<CallArgs<K>>] extends [never] ? [args?: CallArgs<K>] : [args: CallArgs<K>];

/** One method per operation, e.g. `client.createCustomer({ body })`, `client.getCustomer({ path: { id } })`. */
export type OperationMethods = { [K in OperationId]: (...args: ArgsTuple<K>) => Promise<ResultOf<K>> };

/** Operations answering a page (`{ data, has_more, next_cursor }`): usable with `paginate`. */
export type PaginatedOperationId = { [K in OperationId]: (typeof OPERATIONS)[K]["paginated"] extends true ? K : never }[OperationId];
type ItemOf<K extends OperationId> = ResultOf<K> extends { data: (infer T)[] } ? T : never;

export type Environment = "sandbox" | "production";

export type ClientOptions = {
  /** Your tenant's id (sent as X-Tenant-Id). */
  tenantId: string;
  /** The API's base address (without /v1). Or give `environment` and `baseUrls`. */
  baseUrl?: string;
  environment?: Environment;
  /** Base addresses per environment; default from CREDIT_PLATFORM_SANDBOX_URL / CREDIT_PLATFORM_PRODUCTION_URL. */
  baseUrls?: Partial<Record<Environment, string>>;
  /** An API key (`sk_test_…` sandbox, `sk_live_…` production)… */
  apiKey?: string;
  /** …or OAuth2 client credentials: the token is fetched, cached and renewed before it expires. */
  clientId?: string;
  clientSecret?: string;
  /** Scopes to ask for (space-separated); default: all the client has. */
  scope?: string;
  /** Per-attempt timeout, ms (default 30,000). */
  timeoutMs?: number;
  /** Retries of 429, 409 `idempotency_in_progress`, 409 with `retryable: true` (a race lost before anything changed),
   *  and of 503 and network failures of requests safe to send again — GET, PUT, DELETE, and POSTs the server replays by
   *  their X-Request-Id; never POST /v1/auth/token (default 3). */
  maxRetries?: number;
  /** First backoff delay, ms (default 500; doubles each retry, with jitter, at most 20 s). */
  retryBaseDelayMs?: number;
  /** The longest Retry-After the client waits for before a retry, ms (default 60,000): an answer asking for a longer
   *  wait is thrown at once (its `ApiError.retryAfterSeconds` says how long). */
  maxRetryAfterMs?: number;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
};

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the generated methods (below)
export class CreditPlatform {
  readonly baseUrl: string;
  readonly tenantId: string;
  // #private (not TypeScript's `private`): the API key, the client secret and the access token stay out of
  // JSON.stringify(client), util.inspect(client) and Object.keys(client).
  readonly #options: ClientOptions;
  #token: { value: string; renewAt: number } | null = null;
  #tokenRequest: Promise<string> | null = null;

  constructor(options: ClientOptions) {
    if (!options.tenantId) throw new CreditPlatformError("tenantId is required");
    if (!options.apiKey && !(options.clientId && options.clientSecret)) throw new CreditPlatformError("Give apiKey, or clientId and clientSecret");
    const env: Record<string, string | undefined> = typeof process !== "undefined" ? process.env : {};
    const base =
      options.baseUrl ??
      (options.environment ? (options.baseUrls?.[options.environment] ?? env[`CREDIT_PLATFORM_${options.environment.toUpperCase()}_URL`]) : undefined);
    if (!base) throw new CreditPlatformError("Give baseUrl, or environment with baseUrls (or CREDIT_PLATFORM_<ENVIRONMENT>_URL)");
    if (options.apiKey && options.environment) {
      const expected = options.environment === "sandbox" ? "sk_test_" : "sk_live_";
      if (!options.apiKey.startsWith(expected)) throw new CreditPlatformError(`A ${options.environment} key starts with ${expected}`);
    }
    this.baseUrl = base.replace(/\/+$/, "");
    this.tenantId = options.tenantId;
    this.#options = options;
    for (const id of Object.keys(OPERATIONS) as OperationId[]) {
      (this as unknown as Record<string, unknown>)[id] = (args?: CallArgs<OperationId>) => this.call(id, args ?? ({} as CallArgs<OperationId>));
    }
  }

  /** What JSON.stringify shows of a client: its address and tenant, never its credentials. */
  toJSON(): { baseUrl: string; tenantId: string } {
    return { baseUrl: this.baseUrl, tenantId: this.tenantId };
  }

  /** What util.inspect (console.log) shows of a client: its address and tenant, never its credentials. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `CreditPlatform ${JSON.stringify(this.toJSON())}`;
  }

  /** Every item of a paginated list, page after page (`limit` per page). */
  async *paginate<K extends PaginatedOperationId>(id: K, args: Omit<CallArgs<K>, "query"> & { query?: QueryOf<K> } = {} as never): AsyncGenerator<ItemOf<K>> {
    let cursor: string | undefined;
    for (;;) {
      const query = { ...(args.query as Record<string, unknown> | undefined), ...(cursor ? { cursor } : {}) };
      const page = (await this.call(id, { ...args, query } as CallArgs<K>)) as { data: ItemOf<K>[]; has_more: boolean; next_cursor: string | null };
      yield* page.data;
      if (!page.has_more || !page.next_cursor) return;
      cursor = page.next_cursor;
    }
  }

  /** Calls one operation by its operationId (what every generated method does). */
  async call<K extends OperationId>(id: K, args: CallArgs<K>): Promise<ResultOf<K>> {
    const op = OPERATIONS[id];
    const a = args as { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown } & RequestOptions;
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = a.path?.[name];
      if (value === undefined || value === null || value === "") throw new CreditPlatformError(`${id}: path parameter ${name} is required`);
      return encodeURIComponent(String(value));
    });
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(a.query ?? {})) if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(a.headers ?? {})) {
      if (SDK_HEADERS.has(name.toLowerCase())) throw new CreditPlatformError(`${id}: the ${name} header is set by the SDK`);
      headers[name.toLowerCase()] = value;
    }
    headers.accept = "application/json";
    headers["user-agent"] = userAgent();
    let body: string | undefined;
    if (op.body === "application/json" && a.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(a.body);
    } else if (op.body === "application/x-www-form-urlencoded" && a.body !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(a.body as Record<string, string>).toString();
    }
    if (op.method === "POST") headers["x-request-id"] = a.requestId ?? crypto.randomUUID();
    const deleted = op.method === "DELETE" ? deletedAnswer(op.path, a.path) : undefined;
    const result = await this.send(op.method, url, headers, body, { auth: op.auth === "bearer", safe: op.retrySafe, options: a, deleted });
    return result as ResultOf<K>;
  }

  /** `how.deleted`: a DELETE's documented answer, what the call returns when a retry of it finds nothing (see below). */
  private async send(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    how: { auth: boolean; safe: boolean; options: RequestOptions; deleted?: DeletedAnswer },
  ): Promise<unknown> {
    const maxRetries = this.#options.maxRetries ?? 3;
    const maxRetryAfterMs = this.#options.maxRetryAfterMs ?? 60_000;
    const requestId = headers["x-request-id"];
    const signal = how.options.signal;
    const what = `${method} ${url.pathname}`;
    let renewedToken = false;
    // The last attempt whose outcome is unknown (it may have reached the server and been applied, but no whole answer
    // came back), if any. An attempt that never reached the server — a refused connection, a name that did not resolve,
    // a TLS handshake that failed — is no such attempt: nothing was applied.
    let unknown: ConnectionError | TimeoutError | undefined;
    for (let attempt = 0; ; attempt++) {
      let token: string | undefined;
      if (how.auth) {
        try {
          token = await this.#credential();
        } catch (err) {
          if (signal?.aborted) throw err;
          throw credentialFailure(what, err, requestId, unknown);
        }
        headers.authorization = `Bearer ${token}`;
        headers["x-tenant-id"] = this.tenantId;
      }
      // The whole exchange — headers, body and its JSON — is one attempt: a failure anywhere in it is a
      // ConnectionError or TimeoutError, retried (under the same X-Request-Id) where the operation allows it.
      let answer: Answer;
      try {
        answer = await this.fetchOnce(method, url, headers, body, how.options, requestId);
      } catch (err) {
        if (signal?.aborted) throw err;
        if ((err instanceof ConnectionError || err instanceof TimeoutError) && !NOT_SENT.has(err)) unknown = err;
        if (how.safe && attempt < maxRetries) {
          await sleep(this.backoff(attempt), signal);
          continue;
        }
        throw err;
      }
      const { response } = answer;
      if (response.ok) return answer.data;
      // A DELETE sent again after an attempt that may have reached the server (its outcome unknown) finds nothing when
      // that attempt did delete it (the API answers 404 for what it deleted): that is the call's success, answered as the
      // API documents it. After attempts that never reached the server, a 404 is the API's answer: an ApiError.
      if (response.status === 404 && method === "DELETE" && unknown && how.deleted) return { ...how.deleted };
      const problem = problemOf(response, answer.text);
      const error = new ApiError(problem, response.headers, requestId);
      if (response.status === 401 && how.auth && !this.#options.apiKey && !renewedToken) {
        // The token was revoked or expired early: a new one, once per call. Only the token this attempt was refused is
        // dropped — another call may have renewed it already — and the renewal is shared by every call that needs it.
        // Not an attempt: it does not count against maxRetries.
        if (this.#token?.value === token) this.#token = null;
        renewedToken = true;
        attempt--;
        continue;
      }
      // A 409 is retried when the request was not applied: its key still in flight (`idempotency_in_progress`), or a race
      // lost before anything changed (`retryable: true`, the key released) — the same X-Request-Id is judged again.
      const retryable =
        response.status === 429 || (response.status === 503 && how.safe) || (response.status === 409 && (problem.code === "idempotency_in_progress" || error.retryable));
      const retryAfterMs = (error.retryAfterSeconds ?? 0) * 1000;
      // A Retry-After beyond the bound (a proxy's "come back tomorrow") is the caller's to handle: thrown at once.
      if (retryable && attempt < maxRetries && retryAfterMs <= maxRetryAfterMs) {
        await sleep(Math.max(this.backoff(attempt), retryAfterMs), signal);
        continue;
      }
      throw error;
    }
  }

  /** One attempt: the request, and the answer's whole body (parsed when it is a success), within its timeout. */
  private async fetchOnce(method: string, url: URL, headers: Record<string, string>, body: string | undefined, options: RequestOptions, requestId: string | undefined): Promise<Answer> {
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs ?? 30_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const what = `${method} ${url.pathname}`;
    let response: Response | undefined;
    try {
      response = await (this.#options.fetch ?? fetch)(url, { method, headers, body, signal, redirect: "error" });
      const text = await response.text();
      if (!response.ok || !text) return { response, text, data: undefined };
      try {
        return { response, text, data: JSON.parse(text) };
      } catch (err) {
        // A success whose body is not JSON: cut short by something on the way (or not the API answering).
        throw new ConnectionError(`${what}: the ${response.status} answer's body is not JSON (${(err as Error).message})`, err, requestId);
      }
    } catch (err) {
      if (err instanceof ConnectionError) throw err;
      if (timeout.aborted && !options.signal?.aborted) {
        // fetch does not say whether the connection was made: a timeout may have reached the server (unknown outcome).
        throw new TimeoutError(response ? `${what}: the answer's body did not arrive within ${timeoutMs} ms` : `${what}: no answer within ${timeoutMs} ms`, { cause: err, requestId });
      }
      if (options.signal?.aborted) throw err;
      if (!response && neverSent(err)) {
        const failure = new ConnectionError(`${what}: no connection, the request was not sent: ${failureReason(err)}`, err, requestId);
        NOT_SENT.add(failure);
        throw failure;
      }
      throw new ConnectionError(`${what}: ${response ? `the connection failed while the answer's body arrived: ${failureReason(err)}` : failureReason(err)}`, err, requestId);
    }
  }

  /** Exponential backoff with full jitter: a random delay up to base × 2^attempt (at most 20 s). */
  private backoff(attempt: number): number {
    const ceiling = Math.min(20_000, (this.#options.retryBaseDelayMs ?? 500) * 2 ** attempt);
    return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
  }

  async #credential(): Promise<string> {
    if (this.#options.apiKey) return this.#options.apiKey;
    if (this.#token && Date.now() < this.#token.renewAt) return this.#token.value;
    this.#tokenRequest ??= this.#fetchToken().finally(() => {
      this.#tokenRequest = null;
    });
    return this.#tokenRequest;
  }

  async #fetchToken(): Promise<string> {
    const form: Record<string, string> = { grant_type: "client_credentials", ...(this.#options.scope ? { scope: this.#options.scope } : {}) };
    const basic = btoa(`${encodeURIComponent(this.#options.clientId!)}:${encodeURIComponent(this.#options.clientSecret!)}`);
    const answer = (await this.send(
      "POST",
      new URL(`${this.baseUrl}/v1/auth/token`),
      { accept: "application/json", "user-agent": userAgent(), "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
      new URLSearchParams(form).toString(),
      { auth: false, safe: true, options: {} },
    )) as { access_token: string; expires_in: number };
    // Renewed a minute before it expires, so that no request carries a token that lapses in flight.
    this.#token = { value: answer.access_token, renewAt: Date.now() + Math.max(0, answer.expires_in - 60) * 1000 };
    return answer.access_token;
  }
}

// The generated methods, declared for the compiler (they are installed by the constructor).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface CreditPlatform extends OperationMethods {}

function userAgent(): string {
  const runtime = typeof process !== "undefined" && process.versions?.node ? `node/${process.versions.node}` : "js";
  return `credit-platform-node/${SDK_VERSION} ${runtime}`;
}

type Answer = { response: Response; text: string; data: unknown };

/** The headers the SDK sets itself: not to be given in a call's `headers`. */
const SDK_HEADERS = new Set(["accept", "authorization", "content-type", "content-length", "host", "user-agent", "x-request-id", "x-tenant-id"]);

/** A failure of the credential step (the token request) inside a call, as an error of the call: it carries the call's own
 *  X-Request-Id (never the token request's) and the token's error as its cause. When an earlier attempt of the call
 *  had an unknown outcome (it may have been applied), it is that attempt's TimeoutError or ConnectionError type: the
 *  call is to be sent again with its `requestId`. */
function credentialFailure(what: string, err: unknown, requestId: string | undefined, unknown: ConnectionError | TimeoutError | undefined): unknown {
  const reason = err instanceof Error ? err.message : String(err);
  if (unknown) {
    const message = `${what}: an earlier attempt's outcome is unknown (${unknown.message}), and the token could not be renewed: ${reason}`;
    return unknown instanceof TimeoutError ? new TimeoutError(message, { cause: err, requestId }) : new ConnectionError(message, err, requestId);
  }
  if (err instanceof ApiError) return new ApiError(err.problem, err.headers, requestId ?? null, err);
  const message = `${what}: the token request failed: ${reason}`;
  if (err instanceof TimeoutError) return new TimeoutError(message, { cause: err, requestId });
  if (err instanceof ConnectionError) return new ConnectionError(message, err, requestId);
  return new CreditPlatformError(message, { cause: err, requestId });
}

/** A DELETE's documented 200 answer (e.g. DeletedWebhookEndpoint): `{ id, object, deleted: true }`. */
type DeletedAnswer = { id: string; object: string; deleted: true };

/** What a DELETE whose earlier attempt deleted the resource answers, as the API documents it: `{ id, object, deleted: true }`,
 *  the id being the path's last parameter and `object` its resource, singular, in snake case (`/v1/webhook-endpoints/{id}`:
 *  `webhook_endpoint`). None for a DELETE without a path parameter. */
function deletedAnswer(template: string, params: Record<string, unknown> | undefined): DeletedAnswer | undefined {
  const segments = template.split("/").filter(Boolean);
  let at = segments.length - 1;
  while (at >= 0 && !/^\{\w+\}$/.test(segments[at]!)) at--;
  if (at < 1) return undefined;
  const id = params?.[segments[at]!.slice(1, -1)];
  const resource = segments[at - 1]!.replace(/-/g, "_");
  const object = resource.endsWith("ies") ? `${resource.slice(0, -3)}y` : resource.endsWith("s") && !resource.endsWith("ss") ? resource.slice(0, -1) : resource;
  return { id: String(id), object, deleted: true };
}

/** ConnectionErrors of attempts that never reached the server (see neverSent): their outcome is known — not applied. */
const NOT_SENT = new WeakSet<Error>();

/** Error codes of a connection that was never made, so that no byte of the request was sent: refused, no route, a name
 *  that does not resolve (ENOTFOUND, EAI_AGAIN…), undici's connect timeout, a TLS handshake refused (certificate errors).
 *  A reset (ECONNRESET) or a closed socket may come after the request was written: not here. */
const CONNECT_FAILURES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NONAME",
  "EAI_NODATA",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "ENETDOWN",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
]);

/** Whether a fetch failure (before any answer) certainly happened before the request was sent: its cause chain carries a
 *  connect failure's code (fetch's TypeError → the socket's error; an AggregateError of every address tried: all of them). */
function neverSent(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== "object" || depth > 8) return false;
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (Array.isArray(e.errors) && e.errors.length > 0) return e.errors.every((one) => neverSent(one, depth + 1));
  if (typeof e.code === "string" && (CONNECT_FAILURES.has(e.code) || /^(CERT_|UNABLE_TO_)/.test(e.code))) return true;
  return neverSent(e.cause, depth + 1);
}

/** A fetch failure's message with its cause's ("fetch failed: connect ECONNREFUSED 127.0.0.1:8080"). */
function failureReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : undefined;
  return cause && cause !== message ? `${message}: ${cause}` : message;
}

function problemOf(response: Response, text: string): Problem {
  try {
    const parsed = JSON.parse(text) as Partial<Problem>;
    if (parsed && typeof parsed === "object" && typeof parsed.code === "string") return { status: response.status, type: "", title: "", ...parsed } as Problem;
  } catch {
    // not JSON: below
  }
  return { type: "about:blank", title: response.statusText || "Error", status: response.status, code: `http_${response.status}`, detail: text.slice(0, 500) || undefined };
}

/** Waits `ms`, or rejects with the signal's reason as soon as it is aborted. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
