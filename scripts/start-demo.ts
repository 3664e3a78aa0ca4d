import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ROOT, run } from "./lib/database";
import { devDatabase, loadDevEnv, prepareDatabase } from "./lib/dev-env";
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

const began = performance.now();
const elapsed = () => `${((performance.now() - began) / 1000).toFixed(1)} s`;
loadDevEnv();
const [database, generated] = await Promise.all([devDatabase(), ensureClient()]);
console.log(`▶ database: ${database.embedded ? `embedded PostgreSQL (.data/pg${database.server ? "" : ", already running"})` : "DATABASE_URL"}${generated ? "; database client generated" : ""} (${elapsed()})`);
const prepared = await prepareDatabase(database);
if (prepared.created || prepared.migrated > 0) console.log(`▶ ${prepared.migrated} migration(s) applied (${elapsed()})`);
const { seedDemo } = await import("./seed-demo");
const demo = await seedDemo();
const { disconnectDb } = await import("@/lib/db/client");
const { stopListener } = await import("@/lib/db/notifications");
await disconnectDb();
await stopListener();
console.log(`▶ demo tenant ready (${elapsed()}); starting Next`);

if (prod) await run("next", ["build"]);
const next: ChildProcess = spawn(path.join(ROOT, "node_modules", ".bin", "next"), [prod ? "start" : "dev", "-p", String(port)], {
  cwd: ROOT,
  env: process.env,
  stdio: "inherit",
});

const sandbox = process.env.SANDBOX_BASE_URL;
console.log(`
────────────────────────────────────────────────────────────────────────
 Credit Platform is starting on http://localhost:${port}

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
────────────────────────────────────────────────────────────────────────
`);

let stopping = false;
const shutdown = async (code: number) => {
  if (stopping) return;
  stopping = true;
  next.kill("SIGTERM");
  await database.server?.stop().catch(() => undefined);
  process.exit(code);
};
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));
next.on("exit", (code) => void shutdown(code ?? 0));
