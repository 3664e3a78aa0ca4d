import { ApiError } from "./errors";
import { problemResponse, toProblem } from "./problem";
import { readRequestId } from "./request-input";

// Unknown /v1 paths answer the one error shape, not the framework's HTML 404.
export async function notFoundRoute(request: Request): Promise<Response> {
  let requestId = "unknown";
  try {
    requestId = readRequestId(request).requestId;
  } catch {
    // an invalid X-Request-Id does not change the answer
  }
  const headers = new Headers({ "cache-control": "no-store", "x-request-id": requestId });
  return problemResponse(toProblem(new ApiError("not_found", "No such endpoint: see /v1/openapi.json"), requestId), headers);
}
