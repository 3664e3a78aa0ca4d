import { ApiError } from "./errors";
import { problemResponse, toProblem } from "./problem";
import { echoedRequestId } from "./request-input";
import { allowedMethods } from "./route-table";

// What the server in front of Next checks on every /v1 request before Next routes it (lib/http/edge-server.ts):
// the answers Next itself would give as HTML or an empty body (a 500 page for TRACE, a bare 405, an HTML 404 for
// /v1, a 500 for bad percent-encoding) become problem+json. Returns null when the request may go on to its route.

/** What the gate reads of a request: Node's request adapted by the edge server, or a fetch Request. */
export type GateRequest = { method: string; url: string; headers: { get(name: string): string | null } };

/** A problem+json answer that echoes the request's X-Request-Id (when valid), uncached. */
export function gateProblem(error: ApiError, request: Pick<GateRequest, "headers">, headers: Record<string, string> = {}): Response {
  const requestId = echoedRequestId(request.headers.get("x-request-id"));
  return problemResponse(toProblem(error, requestId), new Headers({ "cache-control": "no-store", "x-request-id": requestId, ...headers }));
}

export function gateV1(request: GateRequest): Response | null {
  const raw = request.url.slice(request.url.indexOf("/", request.url.indexOf("//") + 2)).split("?")[0]!;
  let pathname: string;
  try {
    pathname = decodeURIComponent(raw);
  } catch {
    return gateProblem(new ApiError("invalid_url", "The URL's percent-encoding is malformed"), request);
  }
  const allowed = allowedMethods(pathname.replace(/\/+$/, "") || "/");
  if (!allowed) return gateProblem(new ApiError("not_found", "No such endpoint: see /v1/openapi.json"), request);
  const allow = allowed.join(", ");
  // No CORS: the API is for servers (keys never belong in a browser), so no Access-Control-* header is sent.
  if (request.method === "OPTIONS") {
    const requestId = echoedRequestId(request.headers.get("x-request-id")); // every answer carries one, as gateProblem's
    return new Response(null, { status: 204, headers: { allow, "cache-control": "no-store", "x-request-id": requestId } });
  }
  if (!allowed.includes(request.method)) {
    return gateProblem(new ApiError("method_not_allowed", `${request.method} is not allowed here; allowed: ${allow}`), request, { allow });
  }
  return null;
}
