import { ApiError, ERROR_CODES, type ErrorCode, type FieldError } from "./errors";

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  request_id: string;
  errors?: FieldError[];
  [extension: string]: unknown;
};

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** `type` is a URN: stable and unique per code, without pretending to be a page that can be fetched. */
export function problemType(code: ErrorCode): string {
  return `urn:credit-platform:problem:${code}`;
}

export function toProblem(error: ApiError, requestId: string): Problem {
  return {
    type: problemType(error.code),
    title: ERROR_CODES[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    request_id: requestId,
    ...(error.errors ? { errors: error.errors } : {}),
    ...(error.extra ?? {}),
  };
}

export function problemResponse(problem: Problem, headers: Headers): Response {
  headers.set("content-type", PROBLEM_CONTENT_TYPE);
  return new Response(JSON.stringify(problem), { status: problem.status, headers });
}
