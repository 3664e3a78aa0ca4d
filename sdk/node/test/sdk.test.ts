import type { ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { dispatchEvents, runOnce } from "@/lib/webhooks/worker";
import { freePort, ROOT } from "@/scripts/lib/database";
import { uniqueCpf } from "@/tests/credit/flow-helpers";
import { newClient, newKey, newTenant } from "@/tests/helpers/factory";
import { startRouteServer } from "@/tests/helpers/route-server-process";
import { ApiError, ConnectionError, CreditPlatform, OPERATIONS, SDK_VERSION, TimeoutError, verifyWebhook, WebhookVerificationError } from "../src/index";

// The Node.js SDK against the real /v1 handlers in a server process of their own, on the test database — no
// mocks: the credit flow, OAuth2 client credentials, a 429 retried after its Retry-After, a 409 conflict marked
// retryable retried under the same X-Request-Id (one that is not thrown at once), and a POST retried after
// a dropped connection or an answer cut (or stalled) mid-body (all through a local proxy that injects the fault), a
// Retry-After beyond the client's bound, an abortable backoff, pagination, problem errors, webhook
// signatures made by the platform's worker, the ESM and CJS builds, and one method per documented operation.

let server: ChildProcess;
let base: string;
let tenantId: string;
let apiKey: string;

beforeAll(async () => {
  const port = await freePort();
  server = await startRouteServer(port, 5, "api-server.ts");
  base = `http://127.0.0.1:${port}`;
  const { tenant } = await newTenant();
  tenantId = tenant.id;
  apiKey = (await newKey(tenant.id, "sandbox", ["read", "write", "proposals:review"])).key;
}, 120_000);
afterAll(() => {
  server?.kill("SIGKILL");
});

const client = (extra: Partial<ConstructorParameters<typeof CreditPlatform>[0]> = {}) => new CreditPlatform({ baseUrl: base, tenantId, apiKey, retryBaseDelayMs: 50, ...extra });

/** The proxy saw the POST twice under one generated X-Request-Id, and the server made one customer of it. */
async function expectSentTwiceAppliedOnce(seen: { requestId: string | undefined }[], document: string, madeId: string) {
  expect(seen).toHaveLength(2);
  expect(seen[0]!.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(seen[1]!.requestId).toBe(seen[0]!.requestId);
  const rows = await db().customer.findMany({ where: { tenantId, document } });
  expect(rows.map((r) => r.id)).toEqual([madeId]);
}

/** A proxy in front of the server whose `fault` decides, per request, to pass it on or to misbehave: answer 429
 *  (Retry-After 1 s, or `429:<seconds>`), answer 409 `conflict` with `retryable: true` and Retry-After 1 s (a race lost
 *  before anything changed, `409-retryable`) or without them (`409`, a conflict that stays), or pass it to the server and then drop the connection before the answer
 *  (`drop-after-upstream`), after its headers and half its body (`cut-body`), or stall there (`stall-body`). */
type Fault = "pass" | "429" | `429:${number}` | "409" | "409-retryable" | "drop-after-upstream" | "cut-body" | "stall-body";
async function proxy(fault: (n: number, req: http.IncomingMessage, body: string) => Fault) {
  const seen: { method: string; url: string; requestId: string | undefined }[] = [];
  const target = new URL(base);
  const srv = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, requestId: req.headers["x-request-id"] as string | undefined });
      const action = fault(seen.length, req, body);
      if (action.startsWith("429")) {
        res.writeHead(429, { "content-type": "application/problem+json", "retry-after": action.split(":")[1] ?? "1" });
        res.end(JSON.stringify({ type: "urn:credit-platform:problem:rate_limited", title: "Too Many Requests", status: 429, code: "rate_limited", detail: "Slow down" }));
        return;
      }
      if (action === "409" || action === "409-retryable") {
        const retryable = action === "409-retryable";
        res.writeHead(409, { "content-type": "application/problem+json", ...(retryable ? { "retry-after": "1" } : {}) });
        res.end(JSON.stringify({ type: "urn:credit-platform:problem:conflict", title: "Conflict", status: 409, code: "conflict", detail: "Lost a race", ...(retryable ? { retryable: true } : {}) }));
        return;
      }
      const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () => {
          if (action === "drop-after-upstream") {
            req.socket.destroy(); // the server did the work; the client never hears of it
            return;
          }
          if (action === "cut-body" || action === "stall-body") {
            // The server did the work; the client gets the status, the headers and half the body, then the
            // connection is reset (or nothing more comes).
            const whole = Buffer.concat(chunks);
            const headers = { ...answer.headers, "content-length": String(whole.length) };
            delete headers["transfer-encoding"];
            res.writeHead(answer.statusCode!, headers);
            res.write(whole.subarray(0, Math.floor(whole.length / 2)), () => action === "cut-body" && req.socket.destroy());
            return;
          }
          res.writeHead(answer.statusCode!, answer.headers);
          res.end(Buffer.concat(chunks));
        });
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const close = () => {
    const closed = new Promise((r) => srv.close(r));
    srv.closeAllConnections(); // the stalled ones
    return closed;
  };
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, seen, close };
}

describe("the Node.js SDK", () => {
  it("has a method for every operation of the OpenAPI document (sdk/openapi.json and the app's own)", async () => {
    const documented = JSON.parse(readFileSync(path.join(ROOT, "sdk", "openapi.json"), "utf8")) as { paths: Record<string, Record<string, { operationId: string }>> };
    const ids = Object.values(documented.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    const live = (await (await fetch(`${base}/v1/openapi.json`)).json()) as typeof documented;
    const liveIds = Object.values(live.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids.sort()).toEqual(liveIds.sort());
    const sdk = client() as unknown as Record<string, unknown>;
    expect(ids.filter((id) => typeof sdk[id] !== "function")).toEqual([]);
    expect(Object.keys(OPERATIONS).sort()).toEqual(ids.sort());
  });

  it("runs the credit flow: customer → simulation → margin query → proposal → submit, approve, sign → endorsement → contract → installments → charge", async () => {
    const sdk = client();
    expect(await sdk.getHealth()).toMatchObject({ status: "ok", environment: "sandbox", version: "1.4.0", tenant: tenantId });
    const customer = await sdk.createCustomer({ body: { document: uniqueCpf(), name: "Maria SDK", birth_date: "1960-05-10", payroll: { type: "inss", benefit_number: "1234567890" } } });
    expect(customer).toMatchObject({ object: "customer", name: "Maria SDK" });
    const simulation = await sdk.createSimulation({
      body: { product: "inss_payroll", requested_amount: 1_000_000, term: 12, monthly_rate: "0.0180", disbursement_date: "2026-03-02", first_due_date: "2026-04-02", customer_id: customer.id },
    });
    expect(simulation.schedule).toHaveLength(12);
    const query = await sdk.createMarginQuery({ body: { customer_id: customer.id } });
    const proposal = await sdk.createProposal({ body: { customer_id: customer.id, simulation_id: simulation.id, margin_query_id: query.id } });
    expect(proposal.status).toBe("draft");
    expect((await sdk.submitProposal({ path: { id: proposal.id } })).status).toBe("pending_review");
    expect((await sdk.approveProposal({ path: { id: proposal.id } })).status).toBe("approved");
    expect((await sdk.signProposal({ path: { id: proposal.id } })).status).toBe("signed");
    expect((await sdk.createEndorsement({ body: { proposal_id: proposal.id } })).status).toBe("endorsed");
    const contract = await sdk.issueContract({ body: { proposal_id: proposal.id } });
    expect(contract).toMatchObject({ object: "contract", status: "active", proposal_id: proposal.id });
    const installments = await sdk.listContractInstallments({ path: { id: contract.id }, query: { limit: 100 } });
    expect(installments.data).toHaveLength(12);
    const charge = await sdk.createCharge({ body: { contract_id: contract.id, method: "pix" } });
    expect(charge).toMatchObject({ object: "charge", method: "pix", status: "pending" });
    expect(await db().charge.count({ where: { tenantId, contractId: contract.id } })).toBe(1);
  });

  it("authenticates with OAuth2 client credentials: one token, cached, for many calls", async () => {
    const { client: oauth, clientSecret } = await newClient(tenantId, "sandbox", ["read"]);
    let tokenCalls = 0;
    const counting: typeof fetch = (input, init) => {
      if (String(input).endsWith("/v1/auth/token")) tokenCalls += 1;
      return fetch(input, init);
    };
    const sdk = new CreditPlatform({ baseUrl: base, tenantId, clientId: oauth.client_id, clientSecret, fetch: counting });
    for (let i = 0; i < 3; i++) expect((await sdk.getHealth()).status).toBe("ok");
    expect(tokenCalls).toBe(1);
    await expect(sdk.createCustomer({ body: { document: uniqueCpf(), name: "No write scope" } })).rejects.toMatchObject({ status: 403, code: "insufficient_permissions" });
  });

  it("retries a 429 after its Retry-After", async () => {
    const p = await proxy((n) => (n === 1 ? "429" : "pass"));
    try {
      const began = Date.now();
      expect((await client({ baseUrl: p.url }).getHealth()).status).toBe("ok");
      expect(Date.now() - began).toBeGreaterThanOrEqual(1000);
      expect(p.seen.map((s) => s.url)).toEqual(["/v1/health", "/v1/health"]);
    } finally {
      await p.close();
    }
  });

  it("retries a 409 conflict marked retryable after its Retry-After under the same X-Request-Id, and throws one without it at once", async () => {
    const p = await proxy((n) => (n === 1 ? "409-retryable" : "pass"));
    try {
      const document = uniqueCpf();
      const began = Date.now();
      const made = await client({ baseUrl: p.url }).createCustomer({ body: { document, name: "Lost A Race" } });
      expect(made).toMatchObject({ object: "customer", name: "Lost A Race" });
      expect(Date.now() - began).toBeGreaterThanOrEqual(1000);
      await expectSentTwiceAppliedOnce(p.seen, document, made.id);
    } finally {
      await p.close();
    }
    const permanent = await proxy(() => "409");
    try {
      const err = (await client({ baseUrl: permanent.url })
        .createCustomer({ body: { document: uniqueCpf(), name: "Conflict Stays" } })
        .catch((e: unknown) => e)) as ApiError;
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 409, code: "conflict", retryable: false, requestId: permanent.seen[0]!.requestId });
      expect(permanent.seen).toHaveLength(1);
    } finally {
      await permanent.close();
    }
    // Once the retries are spent, the error says the same request may be sent again (with its requestId).
    const spent = await proxy(() => "409-retryable");
    try {
      const err = (await client({ baseUrl: spent.url, maxRetries: 0 })
        .createCustomer({ body: { document: uniqueCpf(), name: "Still Racing" } })
        .catch((e: unknown) => e)) as ApiError;
      expect(err).toMatchObject({ status: 409, code: "conflict", retryable: true, retryAfterSeconds: 1, requestId: spent.seen[0]!.requestId });
      expect(spent.seen).toHaveLength(1);
    } finally {
      await spent.close();
    }
  });

  it.each([
    ["whose connection dropped after the server acted", "drop-after-upstream", "Dropped Once"],
    ["whose answer was cut mid-body (after the headers)", "cut-body", "Cut Mid-Body"],
  ] as const)("retries a POST %s: one customer, the same X-Request-Id", async (_, fault, name) => {
    const p = await proxy((n) => (n === 1 ? fault : "pass"));
    try {
      const document = uniqueCpf();
      const made = await client({ baseUrl: p.url }).createCustomer({ body: { document, name } });
      expect(made).toMatchObject({ object: "customer", name });
      await expectSentTwiceAppliedOnce(p.seen, document, made.id);
    } finally {
      await p.close();
    }
  });

  it("throws a ConnectionError carrying its X-Request-Id, sent once, when the answer of a call not safe to resend is cut mid-body", async () => {
    const { client: oauth, clientSecret } = await newClient(tenantId, "sandbox", ["read"]);
    const p = await proxy((n) => (n === 1 ? "cut-body" : "pass"));
    try {
      const err = await client({ baseUrl: p.url })
        .createToken({ body: { grant_type: "client_credentials", client_id: oauth.client_id, client_secret: clientSecret } })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectionError);
      expect((err as ConnectionError).requestId).toBe(p.seen[0]!.requestId);
      expect(p.seen).toHaveLength(1);
    } finally {
      await p.close();
    }
  });

  it("maps a timeout while the body arrives to TimeoutError, retries it under the same X-Request-Id, and lets the caller resend with the error's requestId", async () => {
    const p = await proxy((n) => (n === 1 || n === 3 ? "stall-body" : "pass"));
    try {
      const document = uniqueCpf();
      const retried = await client({ baseUrl: p.url, timeoutMs: 2_000 }).createCustomer({ body: { document, name: "Stalled Once" } });
      expect(p.seen).toHaveLength(2);
      expect(p.seen[1]!.requestId).toBe(p.seen[0]!.requestId);
      // Without retries the caller gets the TimeoutError — an unknown outcome — and resends with its requestId.
      const other = uniqueCpf();
      const sdk = client({ baseUrl: p.url, timeoutMs: 2_000, maxRetries: 0 });
      const err = await sdk.createCustomer({ body: { document: other, name: "Stalled Again" } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TimeoutError);
      expect((err as TimeoutError).requestId).toBe(p.seen[2]!.requestId);
      const resent = await sdk.createCustomer({ body: { document: other, name: "Stalled Again" }, requestId: (err as TimeoutError).requestId });
      expect(p.seen[3]!.requestId).toBe(p.seen[2]!.requestId);
      const rows = await db().customer.findMany({ where: { tenantId, document: { in: [document, other] } } });
      expect(rows.map((r) => r.id).sort()).toEqual([retried.id, resent.id].sort());
    } finally {
      await p.close();
    }
  });

  it("throws at once a Retry-After beyond maxRetryAfterMs (default 60 s), the error carrying it and the X-Request-Id", async () => {
    const p = await proxy((n) => (n === 1 ? "429:86400" : n === 2 ? "429:1" : "pass"));
    try {
      let began = Date.now();
      const err = (await client({ baseUrl: p.url })
        .createCustomer({ body: { document: uniqueCpf(), name: "Come Back Tomorrow" } })
        .catch((e: unknown) => e)) as ApiError;
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 429, code: "rate_limited", retryAfterSeconds: 86400, requestId: p.seen[0]!.requestId });
      expect(Date.now() - began).toBeLessThan(5000);
      began = Date.now();
      await expect(client({ baseUrl: p.url, maxRetryAfterMs: 500 }).getHealth()).rejects.toMatchObject({ status: 429, retryAfterSeconds: 1 });
      expect(Date.now() - began).toBeLessThan(5000);
      expect(p.seen).toHaveLength(2);
    } finally {
      await p.close();
    }
  });

  it("stops waiting out a Retry-After when the caller's signal aborts", async () => {
    const p = await proxy(() => "429:30");
    try {
      const began = Date.now();
      const controller = new AbortController();
      // Aborted once the client has the 429 and waits out its Retry-After (not at a guessed moment, which a slow first
      // answer turns into an abort of the request itself): the abort is queued as the client takes the body, and runs
      // after the promise jobs that carry the client from there into its wait.
      const watching: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        if (response.status !== 429) return response;
        const text = await response.text();
        return Object.assign(new Response(text, { status: response.status, headers: response.headers }), {
          text: async () => {
            setTimeout(() => controller.abort(), 0);
            return text;
          },
        });
      };
      const err = await client({ baseUrl: p.url, fetch: watching })
        .getHealth({ signal: controller.signal })
        .catch((e: unknown) => e);
      expect(err).toBe(controller.signal.reason); // the signal's reason (an AbortError), as fetch rejects with it
      expect(Date.now() - began).toBeLessThan(5000);
      expect(p.seen).toHaveLength(1);
    } finally {
      await p.close();
    }
  });

  it("never sends POST /v1/auth/token again after its connection dropped: a refresh spent twice would revoke the grant", async () => {
    const { client: oauth, clientSecret } = await newClient(tenantId, "sandbox", ["read"]);
    const credentials = { client_id: oauth.client_id, client_secret: clientSecret };
    const first = await client().createToken({ body: { grant_type: "client_credentials", ...credentials } });
    const p = await proxy((n) => (n === 1 ? "drop-after-upstream" : "pass"));
    try {
      await expect(client({ baseUrl: p.url }).createToken({ body: { grant_type: "refresh_token", refresh_token: first.refresh_token!, ...credentials } })).rejects.toThrow();
      expect(p.seen).toHaveLength(1);
    } finally {
      await p.close();
    }
    // Refreshed once on the server: the first token spent, its successor live, the grant intact.
    const grant = await db().refreshToken.findMany({ where: { oauthClientId: oauth.id }, orderBy: { createdAt: "asc" } });
    expect(grant.map((r) => [r.usedAt !== null, r.revokedAt])).toEqual([[true, null], [false, null]]);
    // POSTs the server replays stay retried (a customer above), and so does this one on a 429 (never processed).
    expect(OPERATIONS.createToken.retrySafe).toBe(false);
    expect(OPERATIONS.createCustomer.retrySafe).toBe(true);
    expect(OPERATIONS.createSettlementBatch.retrySafe).toBe(true);
  });

  it("pages through a list with paginate()", async () => {
    const { tenant } = await newTenant();
    const key = (await newKey(tenant.id, "sandbox", ["read", "write"])).key;
    const sdk = new CreditPlatform({ baseUrl: base, tenantId: tenant.id, apiKey: key });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await sdk.createCustomer({ body: { document: uniqueCpf(), name: `Page ${i}` } })).id);
    const seen: string[] = [];
    for await (const customer of sdk.paginate("listCustomers", { query: { limit: 2 } })) seen.push(customer.id);
    expect(seen).toEqual([...made].reverse());
  });

  it("surfaces problems as ApiError with their code, status and field errors", async () => {
    const sdk = client();
    const missing = await sdk.getCustomer({ path: { id: "cus_01JD0000000000000000000000" } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404, code: "not_found", type: "urn:credit-platform:problem:not_found" });
    const invalid = (await sdk.createCustomer({ body: { document: "123", name: "" } }).catch((e: unknown) => e)) as ApiError;
    expect(invalid).toMatchObject({ status: 400, code: "validation_error" });
    expect(invalid.errors.map((e) => e.param)).toContain("name");
    expect(invalid.requestId).toMatch(/^[0-9a-f-]{36}$/); // the X-Request-Id the SDK sent, echoed in the problem
    await expect(new CreditPlatform({ baseUrl: base, tenantId, apiKey: "sk_test_wrong" }).getHealth()).rejects.toMatchObject({ status: 401 });
  });

  it("verifies a webhook the platform signed, and refuses a tampered one", async () => {
    const received: { body: string; headers: http.IncomingHttpHeaders }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        received.push({ body, headers: req.headers });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const sdk = client();
      const endpoint = await sdk.createWebhookEndpoint({ body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, event_types: ["*"] } });
      await sdk.testWebhookEndpoint({ path: { id: endpoint.id } });
      while ((await dispatchEvents()) > 0);
      for (let i = 0; i < 20 && received.length === 0; i++) await runOnce();
      expect(received).toHaveLength(1);
      const headers = received[0]!.headers as Record<string, string>;
      const event = verifyWebhook<{ webhook_endpoint_id: string }>(received[0]!.body, headers, endpoint.secret);
      expect(event).toMatchObject({ type: "webhook_endpoint.test", tenant_id: tenantId, environment: "sandbox", data: { webhook_endpoint_id: endpoint.id } });
      expect(() => verifyWebhook(received[0]!.body.replace("test", "tesT"), headers, endpoint.secret)).toThrow(WebhookVerificationError);
      expect(() => verifyWebhook(received[0]!.body, headers, "whsec_" + Buffer.alloc(32).toString("base64"))).toThrow(WebhookVerificationError);
      expect(verifyWebhook(received[0]!.body, headers, ["whsec_" + Buffer.alloc(32).toString("base64"), endpoint.secret]).id).toBe(event.id);
    } finally {
      receiver.close();
    }
  });

  it("builds ESM and CJS packages that load", async () => {
    execFileSync(process.execPath, [path.join(ROOT, "sdk", "node", "scripts", "build.mjs")], { cwd: ROOT, stdio: "pipe" });
    const cjs = createRequire(import.meta.url)(path.join(ROOT, "sdk", "node", "dist", "cjs", "index.js")) as typeof import("../src/index");
    const esm = (await import(path.join(ROOT, "sdk", "node", "dist", "esm", "index.js"))) as typeof import("../src/index");
    for (const built of [cjs, esm]) {
      expect(built.SDK_VERSION).toBe(SDK_VERSION);
      const sdk = new built.CreditPlatform({ baseUrl: base, tenantId, apiKey });
      expect((await sdk.getHealth()).status).toBe("ok");
    }
  }, 60_000);
});
