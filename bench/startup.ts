import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, ROOT } from "../scripts/lib/database";
import { runCapture, startChild, type Child } from "./lib/children";

// Start-up benchmark (issue 7): how long the README's `npm run dev` takes to its first 200, on the first
// start of a fresh checkout (nothing under .data or .next: the embedded PostgreSQL is initialised, the
// database migrated and seeded, Turbopack compiles with an empty cache) and on a later start (everything
// reused). The project is copied into a temporary folder (tracked and untracked files as `git ls-files`
// lists them; node_modules hard-linked), so the checkout's own .data and .next are never touched.
// Each start is timed from spawning `npm run dev` to the first 200 of GET /login; the script's own phase
// lines say where the time went. Goals: first start < 10 s, later start < 3 s.

export type StartTiming = {
  start: "first" | "later";
  firstPanel200Ms: number;
  databaseReadyS: number | null;
  nextReadyMs: number | null;
  health200Ms: number | null;
};

const GOALS = { first: 10_000, later: 3_000 } as const;
const TIMEOUT_MS = 180_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const USE_BEFORE_STOP_MS = 10_000;

async function interrupt(child: Child): Promise<void> {
  const pid = child.process.pid;
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGINT");
  } catch {
    return;
  }
  for (let waited = 0; waited < 20_000 && !child.exited(); waited += 100) await sleep(100);
}

function copyProject(): string {
  const base = mkdtempSync(path.join(os.tmpdir(), "cp-startup-"));
  const dir = path.join(base, "credit-platform");
  mkdirSync(dir);
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT })
    .toString("utf8")
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    try {
      cpSync(path.join(ROOT, file), path.join(dir, file));
    } catch {
      // listed but deleted in the working tree
    }
  }
  try {
    execFileSync("cp", ["-al", path.join(ROOT, "node_modules"), dir]); // hard links: instant, same bytes
  } catch {
    execFileSync("cp", ["-a", path.join(ROOT, "node_modules"), dir]);
  }
  return base;
}

async function status(url: string, headers: Record<string, string> = {}): Promise<number> {
  return fetch(url, { headers, redirect: "manual", signal: AbortSignal.timeout(60_000) }).then(
    (r) => r.status,
    () => 0,
  );
}

async function until200(url: string, began: number, child: Child, headers: Record<string, string> = {}): Promise<number> {
  while (performance.now() - began < TIMEOUT_MS) {
    if (child.exited()) throw new Error(`npm run dev exited before answering:\n${child.tail()}`);
    if ((await status(url, headers)) === 200) return performance.now() - began;
    await sleep(50);
  }
  throw new Error(`${url} did not answer 200 within ${TIMEOUT_MS / 1000} s:\n${child.tail()}`);
}

const phase = (tail: string, re: RegExp): number | null => {
  const m = re.exec(tail);
  return m ? Number(m[1]) : null;
};

// A signal stops the running `npm run dev` (its own process group) before this process exits.
let running: Child | null = null;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => void (running?.stop() ?? Promise.resolve()).finally(() => process.exit(130)));
}

async function timeStart(dir: string, env: NodeJS.ProcessEnv, port: number, which: "first" | "later"): Promise<StartTiming> {
  const began = performance.now();
  const child = startChild(`npm run dev (${which})`, "npm", ["run", "dev"], env, dir);
  running = child;
  try {
    const firstPanel200Ms = await until200(`http://localhost:${port}/login`, began, child);
    let health200Ms: number | null = null;
    if (which === "first") {
      // The newcomer's next step: a key from the CLI, then /v1/health (not part of the start-up figure).
      const out = await runCapture("npm", ["run", "-s", "keys", "--", "create", "--tenant", "demo", "--environment", "sandbox", "--json"], env, dir);
      const created = JSON.parse(out.slice(out.indexOf("{"))) as { key: string; tenant_id: string };
      const t = performance.now();
      await until200(`http://localhost:${port}/v1/health`, t, child, { authorization: `Bearer ${created.key}`, "x-tenant-id": created.tenant_id });
      health200Ms = performance.now() - t;
    }
    await sleep(300); // let the banner reach the pipe
    const tail = child.tail();
    // Stop the way a person does, with Ctrl-C (SIGINT to the whole process group), after a little use: the
    // dev server then keeps its compile cache for the later start. child.stop() below is the fallback.
    await sleep(which === "first" ? USE_BEFORE_STOP_MS : 0);
    await interrupt(child);
    return {
      start: which,
      firstPanel200Ms,
      databaseReadyS: phase(tail, /demo tenant ready \(([\d.]+) s\)/),
      nextReadyMs: phase(tail, /Ready in ([\d.]+)ms/) ?? (phase(tail, /Ready in ([\d.]+)s/) ?? NaN) * 1000,
      health200Ms,
    };
  } finally {
    await child.stop();
    running = null;
  }
}

export async function benchStartup(): Promise<StartTiming[]> {
  const base = copyProject();
  const dir = path.join(base, "credit-platform");
  try {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()), NEXT_TELEMETRY_DISABLED: "1" };
    delete env.DATABASE_URL; // the newcomer's way: the embedded PostgreSQL
    delete env.REDIS_URL;
    const first = await timeStart(dir, env, port, "first");
    const later = await timeStart(dir, env, port, "later");
    return [first, later];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

export function formatStartup(timings: StartTiming[]): string {
  const s = (ms: number | null) => (ms === null || Number.isNaN(ms) ? "—" : `${(ms / 1000).toFixed(1)} s`);
  const rows = timings.map(
    (t) =>
      `${t.start.padEnd(6)} ${s(t.firstPanel200Ms).padStart(9)}   goal < ${GOALS[t.start] / 1000} s ${t.firstPanel200Ms < GOALS[t.start] ? "✓" : "✗"}   ` +
      `database+seed ${s(t.databaseReadyS === null ? null : t.databaseReadyS * 1000)}, next ready ${s(t.nextReadyMs)}` +
      (t.health200Ms === null ? "" : `; then /v1/health 200 in ${s(t.health200Ms)}`),
  );
  return [
    "Start-up: `npm run dev` to the first 200 of GET /login (fresh copy of the project, embedded PostgreSQL)",
    "start    first 200",
    ...rows,
    "The rest of each start is Next's dev server: Turbopack's start-up and the first compile of the page.",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const timings = await benchStartup();
  console.log(formatStartup(timings));
  const dir = path.join(ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "startup.json"), JSON.stringify(timings, null, 2));
}
