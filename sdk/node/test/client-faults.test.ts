import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, ConnectionError, CreditPlatform, CreditPlatformError, TimeoutError } from "../src/index";

// The Node.js SDK's request path against scripted local servers (no database, no API): what a real server cannot be
// made to do on demand — a token request that fails on the renewal a retry needs, 401s arriving one after the other on
// concurrent calls, a 201 cut mid-body on a connection that ends it, a DELETE whose answer is lost — and the client's
// own hygiene (credentials kept out of JSON.stringify and util.inspect, per-call headers).

type Seen = { n: number; method: string; path: string; headers: http.IncomingHttpHeaders; body: string };
/** What a route does with a request: answer (status, JSON body, headers), drop the connection, send raw bytes on it
 *  and close it, or never answer. */
type Action = { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number } | "drop" | "stall" | { raw: string };

const servers: http.Server[] = [];
afterEach(async () => {
  for (const srv of servers.splice(0)) {
    srv.closeAllConnections();
    await new Promise((resolve) => srv.close(resolve));
  }
});

async function scripted(route: (req: Seen, seen: Seen[]) => Action) {
  const seen: Seen[] = [];
  const srv = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const entry: Seen = { n: seen.length + 1, method: req.method!, path: req.url!, headers: req.headers, body };
      seen.push(entry);
      const action = route(entry, seen);
      if (action === "drop") return void req.socket.destroy();
      if (action === "stall") return;
      if ("raw" in action) return void req.socket.end(action.raw);
      const send = () => {
        res.writeHead(action.status, { "content-type": action.status >= 400 ? "application/problem+json" : "application/json", ...action.headers });
        res.end(action.body === undefined ? "" : JSON.stringify(action.body));
      };
      if (action.delayMs) setTimeout(send, action.delayMs);
      else send();
    });
  });
  servers.push(srv);
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, seen, of: (path: string) => seen.filter((s) => s.path.startsWith(path)) };
}

const problem = (status: number, code: string, extra: Record<string, unknown> = {}) => ({ type: `urn:credit-platform:problem:${code}`, title: code, status, code, ...extra });
const oauth = (url: string, extra: Partial<ConstructorParameters<typeof CreditPlatform>[0]> = {}) =>
  new CreditPlatform({ baseUrl: url, tenantId: "ten_1", clientId: "cli_1", clientSecret: "secret-1", retryBaseDelayMs: 10, ...extra });
const keyed = (url: string, extra: Partial<ConstructorParameters<typeof CreditPlatform>[0]> = {}) =>
  new CreditPlatform({ baseUrl: url, tenantId: "ten_1", apiKey: "sk_test_key", retryBaseDelayMs: 10, ...extra });
const refusedToken = { status: 401, body: problem(401, "invalid_client", { request_id: "token-request-id" }), headers: { "x-request-id": "token-request-id" } };

describe("the Node.js SDK's request path", () => {
  it.each([
    ["whose connection dropped", "drop", ConnectionError],
    ["that timed out", "stall", TimeoutError],
  ] as const)(
    "throws a failed token renewal after an attempt %s as that unknown outcome, with the call's own X-Request-Id and the token's error as its cause",
    async (_, fault, type) => {
      // Tokens that last a minute are renewed at once: the retry needs a new one, and the token request is refused.
      const srv = await scripted((req, seen) => {
        if (req.path === "/v1/auth/token") return seen.filter((s) => s.path === "/v1/auth/token").length === 1 ? { status: 200, body: { access_token: "t1", expires_in: 60 } } : refusedToken;
        return fault;
      });
      const err = await oauth(srv.url, { timeoutMs: 300 })
        .createCustomer({ body: { document: "52998224725", name: "Maria" }, requestId: "call-id-1" })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(type);
      expect((err as CreditPlatformError).requestId).toBe("call-id-1");
      expect((err as Error).cause).toBeInstanceOf(ApiError);
      expect(((err as Error).cause as ApiError).requestId).toBe("token-request-id");
      expect(srv.of("/v1/customers").map((s) => s.headers["x-request-id"])).toEqual(["call-id-1"]);
    },
  );

  it("throws a token renewal refused after a 401 as an ApiError carrying the call's own X-Request-Id (none for a GET), not the token request's", async () => {
    const srv = await scripted((req, seen) => {
      if (req.path === "/v1/auth/token") return seen.filter((s) => s.path === "/v1/auth/token").length === 1 ? { status: 200, body: { access_token: "t1", expires_in: 3600 } } : refusedToken;
      return { status: 401, body: problem(401, "unauthorized") };
    });
    const sdk = oauth(srv.url);
    const err = (await sdk.createCustomer({ body: { document: "52998224725", name: "Maria" }, requestId: "call-id-2" }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 401, code: "invalid_client", requestId: "call-id-2" });
    expect((err.cause as ApiError).requestId).toBe("token-request-id");
    const get = (await sdk.getHealth().catch((e: unknown) => e)) as ApiError;
    expect(get).toBeInstanceOf(ApiError);
    expect(get.requestId).toBeUndefined();
  });

  it("renews the token once for concurrent calls refused with 401 one after the other (compare-and-clear)", async () => {
    let refusals = 0;
    const srv = await scripted((req, seen) => {
      if (req.path === "/v1/auth/token") return { status: 200, body: { access_token: `t${seen.filter((s) => s.path === "/v1/auth/token").length}`, expires_in: 3600 } };
      if (req.headers.authorization === "Bearer t1") return { status: 401, body: problem(401, "unauthorized"), delayMs: 100 * refusals++ };
      return { status: 200, body: { status: "ok" } };
    });
    const sdk = oauth(srv.url);
    const answers = await Promise.all(Array.from({ length: 5 }, () => sdk.getHealth()));
    expect(answers.map((a) => a?.status)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    expect(refusals).toBe(5);
    expect(srv.of("/v1/auth/token")).toHaveLength(2);
  });

  it("does not count a 401's token renewal against maxRetries", async () => {
    const srv = await scripted((req, seen) => {
      if (req.path === "/v1/auth/token") return { status: 200, body: { access_token: `t${seen.filter((s) => s.path === "/v1/auth/token").length}`, expires_in: 3600 } };
      const n = seen.filter((s) => s.path === "/v1/health").length;
      return n === 1 ? { status: 401, body: problem(401, "unauthorized") } : n === 2 ? { status: 503, body: problem(503, "unavailable") } : { status: 200, body: { status: "ok" } };
    });
    expect((await oauth(srv.url, { maxRetries: 1 }).getHealth())?.status).toBe("ok");
    expect(srv.of("/v1/health")).toHaveLength(3);
  });

  it("retries a 201 cut mid-body on a connection that ends it (not JSON) under the same X-Request-Id, and throws a ConnectionError once the retries are spent", async () => {
    const cut = { raw: 'HTTP/1.1 201 Created\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"id": "cus_01', };
    const srv = await scripted((req) => (req.n === 1 ? cut : { status: 201, body: { id: "cus_1", object: "customer" } }));
    expect(await keyed(srv.url).createCustomer({ body: { document: "52998224725", name: "Maria" } })).toMatchObject({ id: "cus_1" });
    expect(srv.seen).toHaveLength(2);
    expect(srv.seen[1]!.headers["x-request-id"]).toBe(srv.seen[0]!.headers["x-request-id"]);
    const always = await scripted(() => cut);
    const err = await keyed(always.url, { maxRetries: 0 })
      .createCustomer({ body: { document: "52998224725", name: "Maria" }, requestId: "cut-1" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).requestId).toBe("cut-1");
  });

  it("takes a DELETE's 404 after an attempt whose outcome is unknown for its success, and a first 404 for an ApiError", async () => {
    const srv = await scripted((req) => (req.path.endsWith("/whe_1") && req.n === 1 ? "drop" : { status: 404, body: problem(404, "not_found") }));
    const sdk = keyed(srv.url);
    expect(await sdk.deleteWebhookEndpoint({ path: { id: "whe_1" } })).toEqual({ id: "whe_1", object: "webhook_endpoint", deleted: true });
    expect(srv.seen.map((s) => s.method)).toEqual(["DELETE", "DELETE"]);
    await expect(sdk.deleteWebhookEndpoint({ path: { id: "whe_2" } })).rejects.toMatchObject({ status: 404, code: "not_found" });
    expect(srv.seen).toHaveLength(3);
  });

  it("takes a DELETE's 404 after an attempt that timed out waiting for its answer for its success, answered as documented", async () => {
    const srv = await scripted((req) => (req.n === 1 ? "stall" : { status: 404, body: problem(404, "not_found") }));
    const deleted = await keyed(srv.url, { timeoutMs: 300 }).deleteWebhookEndpoint({ path: { id: "whe_3" } });
    expect(deleted).toEqual({ id: "whe_3", object: "webhook_endpoint", deleted: true });
    expect(srv.seen).toHaveLength(2);
    // Every DELETE's synthesized answer has exactly the fields of its documented 200 answer (sdk/openapi.json).
    type Schema = { $ref?: string; properties?: Record<string, { enum?: unknown[] }>; required?: string[] };
    const doc = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "..", "openapi.json"), "utf8")) as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
      components: { schemas: Record<string, Schema> };
    };
    const deletes = Object.values(doc.paths).flatMap((item) => (item.delete ? [item.delete] : []));
    expect(deletes.map((op) => op.operationId)).toContain("deleteWebhookEndpoint");
    for (const op of deletes) {
      let schema = op.responses["200"]!.content!["application/json"]!.schema;
      while (schema.$ref) schema = doc.components.schemas[schema.$ref.split("/").pop()!]!;
      const always = await scripted((req) => (req.n === 1 ? "drop" : { status: 404, body: problem(404, "not_found") }));
      const answer = (await keyed(always.url).call(op.operationId as "deleteWebhookEndpoint", { path: { id: "x_1" } })) as Record<string, unknown>;
      expect(Object.keys(answer).sort(), op.operationId).toEqual(Object.keys(schema.properties!).sort());
      expect(Object.keys(answer).sort(), op.operationId).toEqual([...schema.required!].sort());
      for (const [name, property] of Object.entries(schema.properties!)) if (property.enum) expect(property.enum, `${op.operationId}.${name}`).toContain(answer[name]);
      expect(answer).toMatchObject({ id: "x_1", deleted: true });
    }
  });

  it.each([
    ["refused", "ECONNREFUSED"],
    ["whose host name did not resolve", "ENOTFOUND"],
    ["whose name resolution failed for now", "EAI_AGAIN"],
  ] as const)("throws a DELETE's 404 after an attempt %s (never sent) as the ApiError, not a success", async (_, code) => {
    const srv = await scripted(() => ({ status: 404, body: problem(404, "not_found") }));
    // A port nothing listens on: a real ECONNREFUSED from fetch; the name failures as fetch reports them (TypeError → cause.code).
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    let calls = 0;
    const flaky: typeof fetch = (input, init) => {
      if (calls++ > 0) return fetch(input, init);
      if (code === "ECONNREFUSED") return fetch(String(input).replace(srv.url, `http://127.0.0.1:${closedPort}`), init);
      const cause = Object.assign(new Error(`getaddrinfo ${code} api.example.invalid`), { code, syscall: "getaddrinfo", hostname: "api.example.invalid" });
      return Promise.reject(new TypeError("fetch failed", { cause }));
    };
    const err = (await keyed(srv.url, { fetch: flaky })
      .deleteWebhookEndpoint({ path: { id: "whe_TYPO" } })
      .catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: "not_found" });
    expect(calls).toBe(2);
    expect(srv.seen.map((s) => `${s.method} ${s.path}`)).toEqual(["DELETE /v1/webhook-endpoints/whe_TYPO"]);
    // Alone (no retry left), such an attempt is a ConnectionError saying the request was not sent.
    calls = 0;
    const alone = await keyed(srv.url, { fetch: flaky, maxRetries: 0 })
      .deleteWebhookEndpoint({ path: { id: "whe_TYPO" } })
      .catch((e: unknown) => e);
    expect(alone).toBeInstanceOf(ConnectionError);
    expect((alone as Error).message).toMatch(new RegExp(`not sent.*${code}`));
  });

  it("keeps its API key, client secret and token out of JSON.stringify and util.inspect", async () => {
    const srv = await scripted((req) => (req.path === "/v1/auth/token" ? { status: 200, body: { access_token: "tok-SECRET-3", expires_in: 3600 } } : { status: 200, body: { status: "ok" } }));
    const withKey = keyed(srv.url, { apiKey: "sk_test_SECRET-1" });
    const withClient = oauth(srv.url, { clientSecret: "client-SECRET-2" });
    await withClient.getHealth();
    for (const sdk of [withKey, withClient]) {
      for (const shown of [JSON.stringify(sdk), inspect(sdk, { showHidden: true, depth: 10 }), JSON.stringify(Object.entries(sdk))]) {
        expect(shown).not.toMatch(/SECRET/);
        expect(shown).toContain(srv.url);
      }
    }
    expect(JSON.parse(JSON.stringify(withKey))).toEqual({ baseUrl: srv.url, tenantId: "ten_1" });
  });

  it("sends a call's extra headers, and refuses those the SDK sets", async () => {
    const srv = await scripted(() => ({ status: 202, body: { received: true } }));
    const sdk = keyed(srv.url);
    await sdk.receiveProviderNotification({ path: { provider: "bank" }, body: { event: "x" } as never, headers: { "X-Provider-Signature": "sig-1" } });
    expect(srv.seen[0]!.headers["x-provider-signature"]).toBe("sig-1");
    await expect(sdk.getHealth({ headers: { Authorization: "Bearer other" } })).rejects.toBeInstanceOf(CreditPlatformError);
    await expect(sdk.getHealth({ headers: { "X-Request-Id": "mine" } })).rejects.toThrow(/set by the SDK/);
    expect(srv.seen).toHaveLength(1);
  });
});
