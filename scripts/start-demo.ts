import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ROOT, run } from "./lib/database";
import { devDatabase, devDatabaseTarget, loadDevEnv, prepareDatabase } from "./lib/dev-env";
import { ensureClient } from "./lib/prepare-client";

// `npm run dev`: the whole app on one command. Without DATABASE_URL an embedded PostgreSQL is started
// (data in .data/pg); migrations are applied, the demo tenant is seeded, and Next serves the panel and
// /v1. `npm run dev -- --prod` builds and serves a production build instead of the dev server.
// Nothing may import the database client before it is generated: it is imported dynamically below.

const prod = process.argv.includes("--prod");
const port = Number(process.env.PORT ?? 3000);
process.env.SANDBOX_BASE_URL ??= `http://localhost:${port}`;
process.env.PRODUCTION_BASE_URL ??= `http://127.0.0.1:${port}`;
process.env.NEXTAUTH_URL ??= `http://localhost:${port}`;
// Local development: sandbox webhook endpoints may point at a receiver on this machine (http://localhost:…).
process.env.WEBHOOKS_SANDBOX_ALLOW_LOOPBACK ??= "true";

const began = performance.now();
const elapsed = () => `${((performance.now() - began) / 1000).toFixed(1)} s`;
// The app's server (scripts/server.mjs: Node's server with the edge checks in front of Next), in development or production.
const spawnNext = (mode: "dev" | "start"): ChildProcess =>
  spawn(process.execPath, [path.join(ROOT, "scripts", "server.mjs"), ...(mode === "dev" ? ["--dev"] : [])], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: "inherit",
  });

loadDevEnv();
// The dev server needs no database to boot (only its address, in the environment it inherits): it starts at
// once, and Turbopack's start-up and first compile (seconds on a small machine, the largest share of a start;
// see README.md, Benchmark) overlap the embedded PostgreSQL's start, the migrations and the seed. Only a client
// generated from another schema must be made first, since the pages import it.
devDatabaseTarget();
let next: ChildProcess | null = null;
let worker: ChildProcess | null = null;
let database: Awaited<ReturnType<typeof devDatabase>> | null = null;
let stopping = false;
// Stopping: the app's server and the worker finish first (the server writes Turbopack's compile cache, the worker
// its round in hand), then the embedded PostgreSQL stops. (A terminal's Ctrl-C also reaches PostgreSQL itself, which
// then stops at once; the worker takes that calmly, lib/webhooks/worker.ts.)
const shutdown = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await Promise.all([stopChild(next), stopChild(worker)]);
  await database?.server?.stop().catch(() => undefined);
  process.exit(code);
};
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
const generated = await ensureClient();
if (!prod) {
  next = spawnNext("dev");
  next.on("exit", (code) => void shutdown(code ?? 0));
}
database = await devDatabase();
console.log(`▶ database: ${database.embedded ? `embedded PostgreSQL (.data/pg${database.server ? "" : ", already running"})` : "DATABASE_URL"}${generated ? "; database client generated" : ""} (${elapsed()})`);
const prepared = await prepareDatabase(database);
if (prepared.created || prepared.migrated > 0) console.log(`▶ ${prepared.migrated} migration(s) applied (${elapsed()})`);
const { seedDemo } = await import("./seed-demo");
const demo = await seedDemo();
const { disconnectDb } = await import("@/lib/db/client");
const { stopListener } = await import("@/lib/db/notifications");
await disconnectDb();
await stopListener();
console.log(`▶ demo tenant ready (${elapsed()})`);

if (prod) {
  await run("next", ["build"]);
  next = spawnNext("start");
  next.on("exit", (code) => void shutdown(code ?? 0));
}
// The banner waits for the panel's first answer (this request also compiles the sign-in page, so the
// person who opens it next does not wait for that).
const ready = await waitFor(`http://localhost:${port}/login`, 180_000);
// The webhook worker (what `npm run worker` runs in production), on the same database; started once the panel
// answers, so that it does not compete with the first compilation for the CPU.
if (!stopping) worker = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), [path.join(ROOT, "scripts", "worker.ts")], { cwd: ROOT, env: process.env, stdio: "inherit" });

const sandbox = process.env.SANDBOX_BASE_URL;
console.log(`
────────────────────────────────────────────────────────────────────────
 Credit Platform is ${ready ? `ready (${elapsed()} after the start)` : "still starting (the panel did not answer within 3 minutes)"} on http://localhost:${port}

 Panel:     http://localhost:${port}/login
 Sign in:   ${demo.email} / ${demo.password ?? "(printed at the first start; see .data/demo-credentials.json)"}
 Tenant id: ${demo.tenantId}   (send it as X-Tenant-Id)

 Get a sandbox key: Settings → API Keys → New API key, or
   npm run keys -- create --tenant demo --environment sandbox --permissions "read write"
 Then:
   curl ${sandbox}/v1/health -H "Authorization: Bearer <API_KEY>" -H "X-Tenant-Id: ${demo.tenantId}"

 Sandbox base URL:    ${sandbox}/v1
 Production base URL: ${process.env.PRODUCTION_BASE_URL}/v1
 OpenAPI:             ${sandbox}/v1/openapi.json
 Webhooks:            one worker is running (npm run worker starts more); sandbox endpoints may use http://localhost
────────────────────────────────────────────────────────────────────────
`);


async function waitFor(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    const status = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(60_000) }).then((r) => r.status, () => 0);
    if (status === 200) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** SIGTERM (a no-op if the child already has the terminal's Ctrl-C), then waits for it to exit; SIGKILL only once the
 *  server's own grace has passed (lib/http/app-server.ts: the idempotency lease and 15 s, which lets the requests in
 *  flight end and Turbopack write its compile cache) and 5 s more. */
async function stopChild(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const leaseSeconds = Number(process.env.IDEMPOTENCY_LEASE_SECONDS) || 30; // lib/env.ts's default
  const timer = setTimeout(() => child.kill("SIGKILL"), leaseSeconds * 1000 + 15_000 + 5_000);
  await exited;
  clearTimeout(timer);
}
