// Errors the SDK throws. An API error carries the RFC 9457 problem body the server sent.

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

export class CreditPlatformError extends Error {
  override readonly name: string = "CreditPlatformError";
}

/** The API answered with an error status: the problem's fields, typed. */
export class ApiError extends CreditPlatformError {
  override readonly name = "ApiError";
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly detail: string | undefined;
  readonly errors: FieldError[];
  readonly requestId: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(readonly problem: Problem, readonly headers: Headers) {
    super(`${problem.status} ${problem.code}: ${problem.detail ?? problem.title}`);
    this.status = problem.status;
    this.type = problem.type;
    this.code = problem.code;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
    this.requestId = problem.request_id ?? headers.get("x-request-id") ?? undefined;
    const retryAfter = Number(headers.get("retry-after"));
    this.retryAfterSeconds = Number.isFinite(retryAfter) && headers.has("retry-after") ? retryAfter : undefined;
  }
}

/** No answer: the connection failed or was cut. */
export class ConnectionError extends CreditPlatformError {
  override readonly name = "ConnectionError";
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
  }
}

/** No answer within the request's timeout. */
export class TimeoutError extends CreditPlatformError {
  override readonly name = "TimeoutError";
}
