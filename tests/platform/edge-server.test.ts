import type http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEdgeServer } from "@/lib/http/edge-server";
import { problem } from "../helpers/problem";

// The server in front of Next (lib/http/edge-server.ts), over real sockets: what it answers itself as
// problem+json — including what Node's parser refuses and CONNECT, which never reach a request handler — and
// that everything else reaches the handler (Next's, in the app) untouched. The handler here records calls.

const handled: string[] = [];
const policySeen = new Map<string, string | undefined>(); // the CSP request header Next would read, per URL
const addressSeen = new Map<string, string | undefined>(); // the client address the app's server stamped, per URL
let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = createEdgeServer(async (req, res) => {
    handled.push(`${req.method} ${req.url}`);
    policySeen.set(req.url ?? "", req.headers["content-security-policy"] as string | undefined);
    addressSeen.set(req.url ?? "", req.headers["x-client-address"] as string | undefined);
    if (req.url === "/boom") {
      res.setHeader("content-type", "text/html"); // set, then the handler fails: the edge's answer replaces it
      res.setHeader("x-powered-by", "Next.js");
      throw new Error("handler failed at /work/secret/path.ts");
    }
    res.setHeader("content-type", "text/plain");
    res.end("from next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** One raw HTTP/1.1 exchange: the request bytes as given, the whole answer until the server closes or ends it. */
function exchange(request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (c) => {
      chunks.push(c);
      const text = Buffer.concat(chunks).toString();
      const [head, body = ""] = text.split("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(head!)?.[1];
      if (length !== undefined && Buffer.byteLength(body) >= Number(length)) socket.end();
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString();
      const [head, ...rest] = text.split("\r\n\r\n");
      const [statusLine, ...lines] = head!.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
    socket.write(request);
  });
}

const get = (method: string, path: string, extra = "") => exchange(`${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`);

describe("the edge server", () => {
  it("hands every routable request to Next untouched", async () => {
    handled.length = 0;
    for (const [method, path] of [["GET", "/v1/health"], ["POST", "/v1/customers"], ["GET", "/login"], ["DELETE", "/api/panel/members/usr_1"], ["GET", "/v1/customers?limit=1"]]) {
      const answer = await get(method!, path!, method === "POST" ? "Content-Length: 0\r\n" : "");
      expect(answer).toMatchObject({ status: 200, body: "from next" });
    }
    expect(handled).toEqual(["GET /v1/health", "POST /v1/customers", "GET /login", "DELETE /api/panel/members/usr_1", "GET /v1/customers?limit=1"]);
  });

  it("answers TRACE and other methods a /v1 path lacks with 405 problem+json and Allow", async () => {
    handled.length = 0;
    for (const method of ["TRACE", "DELETE", "PROPFIND"]) {
      const answer = await get(method, "/v1/health", "X-Request-Id: trace-1\r\n");
      expect(answer.status).toBe(405);
      expect(answer.headers).toMatchObject({ allow: "GET, HEAD, OPTIONS", "content-type": "application/problem+json", "x-request-id": "trace-1", "x-content-type-options": "nosniff", "x-frame-options": "DENY" });
      expect(JSON.parse(answer.body)).toEqual({
        ...problem("method_not_allowed", 405, "The method is not allowed on this resource", `${method} is not allowed here; allowed: GET, HEAD, OPTIONS`),
        request_id: "trace-1",
      });
    }
    expect(handled).toEqual([]);
  });

  it("answers unknown /v1 paths (bare /v1 too) 404, bad percent-encoding 400, OPTIONS 204 with Allow", async () => {
    for (const path of ["/v1", "/v1/", "/v1/nope", "/v1?x=1"]) {
      const answer = await get("GET", path);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toEqual(problem("not_found", 404, "The resource was not found", "No such endpoint: see /v1/openapi.json"));
    }
    const malformed = await get("GET", "/v1/customers/%E0%A4%A");
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toEqual(problem("invalid_url", 400, "The URL is malformed", "The URL's percent-encoding is malformed"));
    const options = await get("OPTIONS", "/v1/customers");
    expect(options).toMatchObject({ status: 204, body: "" });
    expect(options.headers.allow).toBe("GET, POST, HEAD, OPTIONS");
    expect(options.headers["x-request-id"]).toMatch(/^req_[0-9A-Z]{26}$/);
    expect((await get("OPTIONS", "/v1/customers", "X-Request-Id: trace-options\r\n")).headers["x-request-id"]).toBe("trace-options");
  });

  it("answers methods Next cannot route on any other path with 405 and the methods it can", async () => {
    handled.length = 0;
    const answer = await get("TRACE", "/login");
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(JSON.parse(answer.body)).toEqual(
      problem("method_not_allowed", 405, "The method is not allowed on this resource", "TRACE is not allowed; this server answers GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"),
    );
    expect(handled).toEqual([]);
  });

  it("answers CONNECT, which Node never hands to a request handler, with 405", async () => {
    const answer = await exchange("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    expect(answer.status).toBe(405);
    expect(answer.headers).toMatchObject({ "content-type": "application/problem+json", connection: "close", allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" });
    expect(JSON.parse(answer.body)).toEqual(
      problem("method_not_allowed", 405, "The method is not allowed on this resource", "CONNECT is not allowed; this server answers GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"),
    );
  });

  it("answers headers over Node's 16 KiB limit with 431 and unparseable requests with 400, as problem+json", async () => {
    const big = await get("GET", "/v1/health", `X-Big: ${"a".repeat(20_000)}\r\n`);
    expect(big.status).toBe(431);
    expect(big.headers["content-type"]).toBe("application/problem+json");
    expect(JSON.parse(big.body)).toEqual(problem("headers_too_large", 431, "The request's header fields are too large", "The request's headers exceed 16 KiB"));

    for (const junk of ["GARBAGE\r\n\r\n", "GET /v1/health HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n"]) {
      const answer = await exchange(junk);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual(problem("malformed_request", 400, "The request is not valid HTTP", "The request could not be parsed as HTTP/1.1"));
    }
  });

  it("answers a failing handler with a 500 problem that names no file", async () => {
    const answer = await get("GET", "/boom");
    expect(answer.status).toBe(500);
    expect(answer.body).not.toContain("/work/");
    expect(JSON.parse(answer.body)).toEqual(
      problem("internal_error", 500, "An internal error occurred", "An internal error occurred; quote the request_id when contacting support"),
    );
    // The edge's own answer, with the headers every answer carries; the request id is the body's.
    expect(answer.headers).toMatchObject({
      "content-type": "application/problem+json",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-request-id": JSON.parse(answer.body).request_id,
    });
    expect(answer.headers["x-powered-by"]).toBeUndefined();
  });

  it("gives each panel page view a fresh nonce policy, on the response and on the request Next renders from", async () => {
    const first = await get("GET", "/login");
    const policy = first.headers["content-security-policy"]!;
    expect(policy).toMatch(/^default-src 'self'; script-src 'self' 'nonce-[A-Za-z0-9+/]+=*' 'strict-dynamic'; style-src 'self' 'nonce-/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policySeen.get("/login")).toBe(policy);
    expect((await get("GET", "/login")).headers["content-security-policy"]).not.toBe(policy);
    // The API reference's component injects <style> elements without the nonce: inline styles there, scripts still nonce-only.
    expect((await get("GET", "/docs?tag=customers")).headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'; style-src 'self' 'unsafe-inline'/);
  });

  it("in front of Next's development server, allows what React's dev tooling needs, whatever NODE_ENV says", async () => {
    const dev = createEdgeServer((_req, res) => void res.end("dev"), { dev: true });
    await new Promise<void>((resolve) => dev.listen(0, "127.0.0.1", resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(dev.address() as AddressInfo).port}/login`);
      expect(answer.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic' 'unsafe-eval'; style-src 'self' 'unsafe-inline';.* connect-src 'self' ws: wss:/);
    } finally {
      await new Promise<void>((resolve) => dev.close(() => resolve()));
    }
    expect((await get("GET", "/login")).headers["content-security-policy"]).not.toContain("unsafe-eval");
  });

  it("sets no policy on /v1, /api, static assets, /bench or the router's RSC payloads, and drops one a client sends", async () => {
    const forged = "Content-Security-Policy: script-src 'nonce-forged'\r\n";
    for (const path of ["/v1/health", "/api/panel/members", "/_next/static/chunks/app.js", "/_next/image?url=x", "/favicon.ico", "/bench/report"]) {
      const answer = await get("GET", path, forged);
      expect(answer.headers["content-security-policy"]).toBeUndefined();
      expect(policySeen.get(path)).toBeUndefined();
    }
    for (const rsc of ["RSC: 1\r\n", "RSC: 1\r\nNext-Router-Prefetch: 1\r\n"]) {
      policySeen.delete("/contracts");
      expect((await get("GET", "/contracts", rsc + forged)).headers["content-security-policy"]).toBeUndefined();
      expect(policySeen.get("/contracts")).toBeUndefined();
    }
    // A browser's own prefetch or prerender of a page is a document it may show: it carries the policy.
    for (const prefetch of ["Purpose: prefetch\r\n", "Sec-Purpose: prefetch;prerender\r\n"]) {
      const answer = await get("GET", "/contracts", prefetch + forged);
      expect(answer.headers["content-security-policy"]).toMatch(/'nonce-/);
      expect(policySeen.get("/contracts")).toBe(answer.headers["content-security-policy"]);
    }
    const page = await get("GET", "/contracts", forged);
    expect(policySeen.get("/contracts")).toBe(page.headers["content-security-policy"]);
    expect(page.headers["content-security-policy"]).not.toContain("forged");
  });
});

describe("slow clients", () => {
  // Short limits for the test (the app's are in REQUEST_TIMEOUTS); the sockets are real and really slow.
  let slow: http.Server;
  let slowPort = 0;
  const reached: string[] = [];
  beforeAll(async () => {
    slow = createEdgeServer(
      async (req, res) => {
        reached.push(`${req.method} ${req.url}`);
        for await (const chunk of req) void chunk; // reads the body, as Next would
        res.end("read");
      },
      { timeouts: { headersMs: 400, requestMs: 800, checkEveryMs: 100 } },
    );
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    slowPort = (slow.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => slow.close(() => resolve())));

  /** Sends `parts` one by one `everyMs` apart and returns what the server answered before it closed. */
  function trickle(parts: string[], everyMs: number): Promise<string> {
    return new Promise((resolve) => {
      const socket = net.connect(slowPort, "127.0.0.1");
      const chunks: Buffer[] = [];
      let next = 0;
      socket.write(parts[next++]!);
      const timer = setInterval(() => {
        if (next < parts.length && !socket.destroyed) socket.write(parts[next++]!);
      }, everyMs);
      socket.on("data", (c) => chunks.push(c));
      socket.on("error", () => undefined);
      socket.on("close", () => {
        clearInterval(timer);
        resolve(Buffer.concat(chunks).toString());
      });
    });
  }

  const answerOf = (text: string) => {
    const [head, body = ""] = text.split("\r\n\r\n");
    return { status: Number(head!.split("\r\n")[0]!.split(" ")[1]), type: /content-type: ([^\r]+)/i.exec(head!)?.[1], body: JSON.parse(body) as Record<string, unknown> };
  };

  it("answers 408 problem+json to headers that never finish (slowloris), and closes", async () => {
    const header = Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: ${"a".repeat(10)}\r\n`);
    const text = await trickle(["GET /v1/health HTTP/1.1\r\nHost: localhost\r\n", ...header], 50);
    expect(answerOf(text)).toEqual({
      status: 408,
      type: "application/problem+json",
      body: expect.objectContaining({ status: 408, code: "request_timeout", title: "The request was not received in time" }) as unknown,
    });
    expect(reached).toEqual([]);
  });

  it("answers 408 to a body that never finishes, and a prompt request is unaffected", async () => {
    const text = await trickle(["POST /v1/customers HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", ...Array.from({ length: 40 }, () => " ")], 50);
    expect(answerOf(text)).toMatchObject({ status: 408, type: "application/problem+json", body: { code: "request_timeout" } });
    const prompt = await trickle(["POST /v1/customers HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"], 50);
    expect(prompt).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\nread$/);
  });
});

describe("the client's address", () => {
  it("reaches the handler as the socket's, whatever a client sent as X-Forwarded-For or as the header itself", async () => {
    await exchange("GET /login?who HTTP/1.1\r\nHost: x\r\nX-Client-Address: 203.0.113.250\r\nX-Forwarded-For: 198.51.100.1\r\nConnection: close\r\n\r\n");
    expect(addressSeen.get("/login?who")).toBe("127.0.0.1");
  });
});
