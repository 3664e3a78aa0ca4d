import http from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, type ErrorCode } from "@/lib/api/errors";
import { toProblem, PROBLEM_CONTENT_TYPE } from "@/lib/api/problem";
import { gateProblem, gateV1 } from "@/lib/api/v1-gate";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { stampClientAddress } from "./client-address";
import { applyPanelPolicy } from "./panel-csp";
import { COMMON_SECURITY_HEADERS, HSTS_OVER_HTTPS } from "../../security-headers.mjs";

// The HTTP server in front of Next's request handler (lib/http/app-server.ts, started by scripts/server.mjs). It
// answers, as problem+json, what Next would answer with an HTML page, a bare status or a stack trace, and what
// never reaches Next at all:
// - /v1: methods a path does not have (405 + Allow, TRACE included), unknown paths (404, bare /v1 too) and
//   malformed percent-encoding (400) — lib/api/v1-gate.ts. Checked here, on Node's request, instead of in
//   Next's proxy: the proxy's machinery cost every /v1 request ~0.3 ms of the one thread (bench/README.md), and
//   the app has no proxy any more (the panel's policy is set here too, ./panel-csp.ts);
// - any path: a method Next cannot route (TRACE, PROPFIND, …) is 405 with the methods the server knows;
// - CONNECT (Node hands it to a 'connect' listener, never to Next): 405;
// - requests Node's parser refuses: headers over its limit (16 KiB) 431, anything else malformed 400.
// Everything else goes to Next, panel pages with their Content-Security-Policy and nonce (./panel-csp.ts), every request
// with the client's address in a header only this server writes (./client-address.ts).

export type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void;

/** The methods Next routes; anything else would end in its 500 page. */
const ROUTABLE = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const ROUTABLE_ALLOW = ROUTABLE.join(", ");

const newRequestId = () => newId("request");

// The headers next.config.js puts on every response Next answers, on the edge's own answers too.
const SECURITY_HEADERS: Record<string, string> = Object.fromEntries(COMMON_SECURITY_HEADERS.map((h) => [h.key.toLowerCase(), h.value]));
const HSTS = HSTS_OVER_HTTPS.headers[0]!;
const overHttps = (req: Pick<http.IncomingMessage, "headers">) => req.headers["x-forwarded-proto"] === HSTS_OVER_HTTPS.has[0]!.value;

function problemBody(code: ErrorCode, detail: string, requestId: string): string {
  return JSON.stringify(toProblem(new ApiError(code, detail), requestId));
}

/** A whole HTTP/1.1 response as bytes, for sockets Node's server no longer writes to (client errors, CONNECT). */
function rawProblem(code: ErrorCode, detail: string, extraHeaders: Record<string, string> = {}): string {
  const requestId = newRequestId();
  const body = problemBody(code, detail, requestId);
  const error = new ApiError(code);
  const headers = {
    "content-type": PROBLEM_CONTENT_TYPE,
    "content-length": String(Buffer.byteLength(body)),
    "cache-control": "no-store",
    ...SECURITY_HEADERS,
    "x-request-id": requestId,
    connection: "close",
    ...extraHeaders,
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  return `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status] ?? ""}\r\n${head}\r\n${body}`;
}

function isV1(path: string): boolean {
  return path === "/v1" || path.startsWith("/v1/") || path.startsWith("/v1?");
}

async function writeResponse(req: http.IncomingMessage, res: http.ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  if (overHttps(req)) res.setHeader(HSTS.key, HSTS.value);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (body.length > 0) res.setHeader("content-length", body.length);
  res.end(body);
}

/** The one header the gate reads (X-Request-Id, echoed when valid), from Node's request. */
function requestIdHeader(req: Pick<http.IncomingMessage, "headers">): { get(name: string): string | null } {
  const given = req.headers["x-request-id"];
  return { get: (name) => (name === "x-request-id" && typeof given === "string" ? given : null) };
}

/** What the edge answers itself, or null to hand the request to Next. */
export function edgeAnswer(req: Pick<http.IncomingMessage, "method" | "url" | "headers">): Response | null {
  const method = req.method ?? "GET";
  const target = req.url ?? "/";
  // Origin-form ("/v1/…") as browsers and clients send it; an absolute-form target keeps its own host.
  const url = target.startsWith("/") ? `http://edge${target}` : target;
  const path = target.startsWith("/") ? target : target.slice(target.indexOf("/", target.indexOf("//") + 2));
  if (isV1(path)) return gateV1({ method, url, headers: requestIdHeader(req) });
  if (!ROUTABLE.includes(method)) {
    return gateProblem(new ApiError("method_not_allowed", `${method} is not allowed; this server answers ${ROUTABLE_ALLOW}`), { headers: requestIdHeader(req) }, { allow: ROUTABLE_ALLOW });
  }
  return null;
}

function onClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || err.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const answer =
    err.code === "HPE_HEADER_OVERFLOW"
      ? rawProblem("headers_too_large", "The request's headers exceed 16 KiB")
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? rawProblem("request_timeout", "The request was not received in time")
        : rawProblem("malformed_request", "The request could not be parsed as HTTP/1.1");
  socket.end(answer);
}

function onConnect(_req: http.IncomingMessage, socket: Duplex): void {
  socket.end(rawProblem("method_not_allowed", `CONNECT is not allowed; this server answers ${ROUTABLE_ALLOW}`, { allow: ROUTABLE_ALLOW }));
}

/** How long a client may take to send a request (Node's defaults: 60 s for the headers, 300 s for the whole request,
 *  checked every 30 s — one slow client per socket could hold connections for five minutes). A request's headers
 *  must arrive within 20 s and the whole request within 120 s (room for a 5,000-item settlement batch on a slow
 *  link); past either, the answer is 408 `request_timeout` problem+json and the connection is closed. */
export const REQUEST_TIMEOUTS = { headersMs: 20_000, requestMs: 120_000, checkEveryMs: 5_000 };
export type RequestTimeouts = typeof REQUEST_TIMEOUTS;

/** Node's HTTP server with the edge in front of `handle` (Next's request handler, or a test's). `dev`: Next runs
 *  its development server (the panel's policy then allows what React's dev tooling needs). */
export function createEdgeServer(
  handle: RequestHandler,
  { dev = false, timeouts = REQUEST_TIMEOUTS, trustProxy = false }: { dev?: boolean; timeouts?: RequestTimeouts; /** TRUST_PROXY (./client-address.ts) */ trustProxy?: boolean } = {},
): http.Server {
  const options: http.ServerOptions = {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: timeouts.checkEveryMs,
  };
  const server = http.createServer(options, (req, res) => {
    const answer = edgeAnswer(req);
    if (answer) {
      writeResponse(req, res, answer).catch(() => res.destroy());
      return;
    }
    applyPanelPolicy(req, res, dev);
    stampClientAddress(req, trustProxy);
    Promise.resolve(handle(req, res)).catch((err: unknown) => {
      if (res.headersSent) res.destroy();
      else {
        // Whatever the handler set before it failed goes; the answer is the edge's own, with its headers.
        for (const name of res.getHeaderNames()) res.removeHeader(name);
        const requestId = newRequestId();
        const body = problemBody("internal_error", "An internal error occurred; quote the request_id when contacting support", requestId);
        const headers = { "content-type": PROBLEM_CONTENT_TYPE, "cache-control": "no-store", "x-request-id": requestId };
        writeResponse(req, res, new Response(body, { status: 500, headers })).catch(() => res.destroy());
      }
      try {
        // The path only: a query can hold personal data (GET /v1/customers?document=<CPF>).
        log().error({ err, method: req.method, path: (req.url ?? "/").split("?")[0] }, "the request handler failed");
      } catch {
        console.error("the request handler failed:", err); // the logger's configuration is what failed
      }
    });
  });
  server.on("clientError", onClientError);
  server.on("connect", onConnect);
  return server;
}
