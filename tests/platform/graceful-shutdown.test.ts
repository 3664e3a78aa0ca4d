import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { freePort, ROOT } from "@/scripts/lib/database";
import { cpf } from "../customers/fixtures";
import { newKey, newTenant } from "../helpers/factory";
import { killHard } from "../helpers/route-server-process";

// `npm start`'s stop (lib/http/app-server.ts): on SIGTERM the server stops accepting connections, lets the requests
// in flight end, and only then closes Next and exits 0 — or exits 1 once a stop outlasts a request's longest (the
// idempotency lease) plus a margin. The real scripts/server.mjs runs, compiled as `npm start` compiles it; only the
// `next` package is replaced (there is no production build to serve here) by a stand-in that hands /v1/customers to the
// real route handler — wrapper, idempotency, database — and holds GET /held until a line arrives on its stdin.
// The POST is held in flight by this test's own connection, which inserts the same customer without committing (the
// POST's insert waits on the unique key), so nothing here depends on timing: it rolls back only once the server is stopping.

let dir = "";
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "graceful-shutdown-"));
  const file = (name: string) => pathToFileURL(path.join(ROOT, name)).href;
  writeFileSync(
    path.join(dir, "next.mjs"),
    `import { createHandlerServer } from ${JSON.stringify(file("tests/helpers/serve-handlers.ts"))};
import * as customers from ${JSON.stringify(file("app/v1/customers/route.ts"))};
const released = () => new Promise((resolve) => process.stdin.once("data", resolve));
export default function next() {
  const routes = createHandlerServer({ "/v1/customers": { POST: customers.POST } });
  return {
    prepare: async () => {},
    getRequestHandler: () => async (req, res) => {
      if (req.url !== "/held") return void routes.emit("request", req, res);
      console.log("held");
      await released();
      res.end("released");
    },
    close: async () => console.log("next closed"),
  };
}
`,
  );
  writeFileSync(
    path.join(dir, "hooks.mjs"),
    `export async function resolve(specifier, context, nextResolve) {
  if (specifier === "next") return { url: ${JSON.stringify(pathToFileURL(path.join(dir, "next.mjs")).href)}, shortCircuit: true };
  return nextResolve(specifier, context);
}
`,
  );
  writeFileSync(path.join(dir, "register.mjs"), `import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url);\n`);
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

type Server = { proc: ChildProcess; port: number; stdout: () => string; stderr: () => string; waitFor: (text: string) => Promise<void>; exited: Promise<number | null> };

/** scripts/server.mjs in production, the loopback port as the sandbox's address. */
async function startServer(leaseSeconds: number): Promise<Server> {
  const port = await freePort();
  const loopback = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, ["--import", "tsx", "--import", pathToFileURL(path.join(dir, "register.mjs")).href, path.join(ROOT, "scripts", "server.mjs")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      LISTEN_HOST: "127.0.0.1",
      SANDBOX_BASE_URL: loopback,
      PRODUCTION_BASE_URL: "http://production.invalid:1",
      NEXTAUTH_URL: loopback,
      WEBHOOK_SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
      WEBHOOKS_SANDBOX_ALLOW_LOOPBACK: "false",
      IDEMPOTENCY_LEASE_SECONDS: String(leaseSeconds),
      // A request's transaction (the lease) must outlive a payroll authority call (lib/env.ts): one short attempt.
      PAYROLL_AUTHORITY_MAX_RETRIES: "0",
      PAYROLL_AUTHORITY_TIMEOUT_MS: String(Math.max(100, leaseSeconds * 1000 - 1000)),
      RATE_LIMIT_SANDBOX_PER_MINUTE: "1000000",
      LOG_LEVEL: "silent",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(proc);
  let out = "";
  let err = "";
  const waiters: { text: string; resolve: () => void }[] = [];
  const check = () => {
    for (const w of waiters.splice(0)) if (out.includes(w.text)) w.resolve();
    else waiters.push(w);
  };
  proc.stdout!.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    check();
  });
  proc.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const waitFor = (text: string) =>
    new Promise<void>((resolve, reject) => {
      waiters.push({ text, resolve });
      check();
      void exited.then((code) => reject(new Error(`the server exited (${code}) before printing "${text}":\n${out}\n${err}`)));
    });
  await waitFor("listening");
  return { proc, port, stdout: () => out, stderr: () => err, waitFor, exited };
}

function request(port: number, agent: http.Agent, method: string, pathname: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: pathname, agent, headers }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Resolves once a backend of the database waits for a lock `holder` holds. */
async function blockedBy(holder: pg.Client): Promise<void> {
  const { rows } = await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  const probe = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await probe.connect();
  try {
    for (;;) {
      const waiting = await probe.query("SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", [rows[0]!.pid]);
      if (waiting.rowCount! > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await probe.end();
  }
}

describe("the app's server on SIGTERM", () => {
  it("answers the request in flight, with its effect committed, then closes Next and exits 0 — once, however many signals", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id);
    const server = await startServer(30);
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    const idle = new http.Agent({ keepAlive: true });
    const agent = new http.Agent({ keepAlive: true });
    try {
      // A keep-alive connection left idle (an answer given, the connection kept): it must not hold the stop.
      expect((await request(server.port, idle, "GET", "/v1/customers/none")).status).toBe(404);
      // The same document inserted, not committed: the POST's insert waits on the unique key until this rolls back.
      const document = cpf(7_100_001);
      await holder.query("BEGIN");
      await holder.query("INSERT INTO customers (id, tenant_id, environment, kind, document, name, updated_at) VALUES ($1, $2, 'sandbox', 'person', $3, 'x', now())", [
        `cus_held_${randomUUID()}`,
        tenant.id,
        document,
      ]);
      const posted = request(
        server.port,
        agent,
        "POST",
        "/v1/customers",
        { authorization: `Bearer ${key}`, "x-tenant-id": tenant.id, "content-type": "application/json", "x-request-id": randomUUID() },
        JSON.stringify({ document, name: "Cliente em voo" }),
      ).catch((err: Error) => err);
      // The POST is in flight, waiting on the key (an answer first is a failure, shown with its body).
      const first = await Promise.race([blockedBy(holder).then(() => null), posted]);
      expect(first).toBeNull();

      server.proc.kill("SIGTERM");
      await server.waitFor("stopping");
      server.proc.kill("SIGINT"); // a second signal (Ctrl-C reaches `npm run dev` and the server) changes nothing
      server.proc.kill("SIGTERM");
      // No new connection is answered meanwhile: refused — or reset, when it reached the kernel's accept queue in the
      // moment before the listening socket was closed (libuv closes it on its next turn; seen once in CI).
      await expect(request(server.port, new http.Agent(), "GET", "/v1/customers/none")).rejects.toMatchObject({ code: expect.stringMatching(/^(ECONNREFUSED|ECONNRESET)$/) });
      expect(server.stdout()).not.toContain("next closed"); // Next stays up while a request is in flight

      await holder.query("ROLLBACK");
      const answer = await posted;
      if (answer instanceof Error) throw answer;
      expect(answer.status, answer.body).toBe(201);
      expect(answer.connection).toBe("close"); // the client is told not to send another request on it
      const created = JSON.parse(answer.body) as { id: string };
      expect(await server.exited).toBe(0);
      expect(server.stdout().match(/next closed/g)).toHaveLength(1);
      expect(server.stderr()).toBe("");
      expect(await db().customer.findUnique({ where: { id: created.id } })).toMatchObject({ tenantId: tenant.id, document });
    } finally {
      await holder.end();
      idle.destroy();
      agent.destroy();
      if (server.proc.exitCode === null) await killHard(server.proc);
    }
  }, 90_000);

  it("exits 1, saying so, when a request outlasts the idempotency lease and the margin", async () => {
    const server = await startServer(2); // the shortest lease the configuration allows with these authority settings
    const agent = new http.Agent({ keepAlive: true });
    try {
      const held = request(server.port, agent, "GET", "/held").catch((err: Error) => err);
      await server.waitFor("held");
      server.proc.kill("SIGTERM");
      expect(await server.exited).toBe(1);
      expect(server.stderr()).toContain("The server did not stop within 17 s");
      expect(server.stdout()).not.toContain("next closed");
      expect(await held).toBeInstanceOf(Error); // cut off by the exit, never answered
    } finally {
      agent.destroy();
      if (server.proc.exitCode === null) await killHard(server.proc);
    }
  }, 90_000);
});
