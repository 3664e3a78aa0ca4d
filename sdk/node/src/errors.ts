// Errors the SDK throws. An API error carries the RFC 9457 problem body the server sent. Every error of a call
// carries its `requestId`: the X-Request-Id the SDK sent (every POST: yours or the UUID it generated, the same on
// each retry), else the one the API answered with — on an unknown outcome, send the call again with that id.

export type FieldError = { param: string; in: string; message: string };

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code: string;
  request_id?: string;
  retryable?: boolean;
  errors?: FieldError[];
  [extension: string]: unknown;
};

export type CreditPlatformErrorOptions = { cause?: unknown; requestId?: string };

export class CreditPlatformError extends Error {
  override readonly name: string = "CreditPlatformError";
  /** The call's X-Request-Id: the one the SDK sent (every POST), else the one the API answered with, if any. */
  readonly requestId: string | undefined;

  constructor(message: string, options: CreditPlatformErrorOptions = {}) {
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.requestId = options.requestId;
  }
}

/** The API answered with an error status: the problem's fields, typed. */
export class ApiError extends CreditPlatformError {
  override readonly name = "ApiError";
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly detail: string | undefined;
  readonly errors: FieldError[];
  /** The answer's Retry-After, in seconds (delay or HTTP date), if it had one. */
  readonly retryAfterSeconds: number | undefined;
  /** The problem's `retryable: true`: the same request, sent again with the same X-Request-Id, may succeed — e.g. a 409
   *  `conflict` from a race lost before anything changed (retried by the client, after its Retry-After). `false` when
   *  the problem does not say so (a 409 `conflict` without it stays). */
  readonly retryable: boolean;

  /** `requestId`: the X-Request-Id sent with the call (default: the one in the problem or the answer's headers; `null`:
   *  none — the answer is not the call's own, e.g. its token request's). `cause`: the error it stands for, if any. */
  constructor(readonly problem: Problem, readonly headers: Headers, requestId?: string | null, cause?: unknown) {
    super(`${problem.status} ${problem.code}: ${problem.detail ?? problem.title}`, {
      requestId: requestId === null ? undefined : (requestId ?? problem.request_id ?? headers.get("x-request-id") ?? undefined),
      ...(cause === undefined ? {} : { cause }),
    });
    this.status = problem.status;
    this.type = problem.type;
    this.code = problem.code;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
    this.retryAfterSeconds = parseRetryAfter(headers.get("retry-after"));
    this.retryable = problem.retryable === true;
  }
}

/** No answer, or not all of it: the connection failed or was cut (before or while the answer's body arrived). */
export class ConnectionError extends CreditPlatformError {
  override readonly name = "ConnectionError";
  constructor(message: string, cause?: unknown, requestId?: string) {
    super(message, { cause, requestId });
  }
}

/** No answer, or not all of it, within the request's per-attempt timeout. */
export class TimeoutError extends CreditPlatformError {
  override readonly name = "TimeoutError";
}

/** Retry-After (RFC 9110): a number of seconds, or an HTTP date (seconds from now, at least 0). */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
