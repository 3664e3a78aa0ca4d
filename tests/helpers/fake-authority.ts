import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

// A small fake of the payroll-loan authority on 127.0.0.1 (HTTP, or HTTPS requiring a client certificate),
// speaking docs/payroll-authority-protocol.md. Tests program its answers per request and read back every
// request it received: the HTTP client is tested against real sockets, never mocked functions.

export type FakeRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; body: unknown; at: number };
export type FakeReply =
  | { status: number; json?: unknown; text?: string; headers?: Record<string, string>; delayMs?: number }
  | "hang" // never answers (the client's timeout must fire)
  | "reset" // drops the connection
  | "cut"; // answers 200 and drops the connection halfway through the body

export type FakeHandler = (request: FakeRequest, calls: number) => FakeReply;

export const VALID_MARGIN_ANSWER = {
  query_id: "AUTH-Q-1",
  margin_base: 450000,
  margins: [
    { kind: "loan", share: "0.35", total: 157500, used: 20000, reserved: 0, available: 137500 },
    { kind: "credit_card", share: "0.05", total: 22500, used: 0, reserved: 0, available: 22500 },
    { kind: "benefit_card", share: "0.05", total: 22500, used: 0, reserved: 0, available: 22500 },
  ],
  source_type: "41",
  source_status: "active",
  blocks: [],
  paying_institution: { code: "001", name: "Banco do Brasil S.A." },
  existing_loans: [{ lender: "Banco Alfa S.A.", contract_number: "X-1", installment_amount: 20000, remaining_installments: 30 }],
  valid_until: "2030-01-01T00:00:00.000Z",
};

export class FakeAuthority {
  readonly requests: FakeRequest[] = [];
  private tokens = 0;
  /** Answers to everything but the token endpoint; replace it per test. */
  handler: FakeHandler = () => ({ status: 200, json: VALID_MARGIN_ANSWER });
  /** The token endpoint's answer; default: a fresh token valid for an hour. */
  tokenHandler: (calls: number) => FakeReply = (n) => ({ status: 200, json: { access_token: `tok-${n}`, token_type: "Bearer", expires_in: 3600 } });

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(tls?: { key: string; cert: string; ca: string }): Promise<FakeAuthority> {
    const server = tls ? https.createServer({ key: tls.key, cert: tls.cert, ca: tls.ca, requestCert: true, rejectUnauthorized: true }) : http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakeAuthority(server, `${tls ? "https" : "http"}://127.0.0.1:${port}/`);
    server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => fake.handle(req, res));
    return fake;
  }

  /** Requests to a path (token requests are at /oauth/token). */
  calls(pathname: string): FakeRequest[] {
    return this.requests.filter((r) => r.path === pathname);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw;
      try {
        body = raw && req.headers["content-type"]?.includes("json") ? JSON.parse(raw) : raw;
      } catch {
        body = raw;
      }
      const request: FakeRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, at: Date.now() };
      this.requests.push(request);
      const reply = request.path === "/oauth/token" ? this.tokenHandler(++this.tokens) : this.handler(request, this.requests.filter((r) => r.path !== "/oauth/token").length);
      if (reply === "hang") return;
      if (reply === "reset") {
        req.socket.destroy();
        return;
      }
      if (reply === "cut") {
        // The headers promise more than is sent: the client has the status and part of the body when the socket goes.
        const partial = JSON.stringify(VALID_MARGIN_ANSWER).slice(0, 40);
        res.writeHead(200, { "content-type": "application/json", "content-length": String(partial.length * 4) });
        res.write(partial, () => req.socket.destroy());
        return;
      }
      const send = () => {
        const text = reply.text ?? (reply.json === undefined ? "" : JSON.stringify(reply.json));
        res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
        res.end(text);
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  }
}

/** A CA, a server certificate for 127.0.0.1 and a client certificate, made with the openssl CLI. */
export function makeCertificates(): { ca: string; serverKey: string; serverCert: string; clientKey: string; clientCert: string; dir: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "fake-authority-tls-"));
  const ssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Fake Authority CA");
  writeFileSync(path.join(dir, "san.ext"), "subjectAltName=IP:127.0.0.1\n");
  for (const name of ["server", "client"]) {
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${name === "server" ? "127.0.0.1" : "credit-platform"}`);
    ssl("x509", "-req", "-in", `${name}.csr`, "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", `${name}.pem`, "-days", "2", ...(name === "server" ? ["-extfile", "san.ext"] : []));
  }
  const read = (file: string) => readFileSync(path.join(dir, file), "utf8");
  return { ca: read("ca.pem"), serverKey: read("server.key"), serverCert: read("server.pem"), clientKey: read("client.key"), clientCert: read("client.pem"), dir };
}

/** A fake authority the production environment is configured to call (read once by lib/env.ts on first use, which
 *  is after this in a test file's process), without retries so each test sees each call once. */
export async function productionAuthority(): Promise<FakeAuthority> {
  const fake = await FakeAuthority.start();
  Object.assign(process.env, {
    PAYROLL_AUTHORITY_URL: fake.url,
    PAYROLL_AUTHORITY_CLIENT_ID: "platform",
    PAYROLL_AUTHORITY_CLIENT_SECRET: "s3cret",
    PAYROLL_AUTHORITY_MAX_RETRIES: "0",
  });
  return fake;
}

