import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { config as loadDotenv } from "dotenv";
import { createDatabase, databaseExists, ROOT, startEmbedded, withDatabase, type Server } from "./database";
import { webhookSecretsKeyFrom } from "@/lib/security/secrets-key";
import { ensureMigrated } from "./prepare-client";

// The local development environment shared by `npm run dev`, the worker and the operator CLIs:
// - .env (if any) is loaded first; real deployments set variables instead;
// - secrets missing from the environment are generated once into .data/dev-secrets.json (git-ignored);
// - without DATABASE_URL, the embedded PostgreSQL in .data/pg on port 54329 is used (started if needed).
// None of it with NODE_ENV=production (scriptDatabase below): there the worker and the CLIs take the variables as
// they are and check them first, as `npm start` does.

export const DEV_DATA_DIR = path.join(ROOT, ".data");
export const DEV_PG_DIR = path.join(DEV_DATA_DIR, "pg");
export const DEV_PG_PORT = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
export const DEV_DB_NAME = "credit_platform";

export function loadDevEnv(): void {
  loadDotenv({ path: path.join(ROOT, ".env"), quiet: true });
  mkdirSync(DEV_DATA_DIR, { recursive: true });
  const file = path.join(DEV_DATA_DIR, "dev-secrets.json");
  let secrets: Record<string, string> = {};
  if (existsSync(file)) secrets = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
  let changed = false;
  for (const name of ["AUTH_JWT_SECRET", "NEXTAUTH_SECRET"]) {
    if (!secrets[name]) {
      secrets[name] = randomBytes(32).toString("base64url");
      changed = true;
    }
    process.env[name] ??= secrets[name];
  }
  if (changed) writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  // The key the app derives from AUTH_JWT_SECRET when none is set, made explicit so that `npm run dev -- --prod`
  // (production requires one) reads the webhook secrets development sealed.
  process.env.WEBHOOK_SECRETS_KEY ??= webhookSecretsKeyFrom(process.env.AUTH_JWT_SECRET!).toString("base64");
}

/** Whether something listens on the loopback port (the embedded PostgreSQL of `npm run dev`, say). */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Where the database is: DATABASE_URL, or the embedded dev database's address, which is then set as
 * DATABASE_URL so that processes started after this call inherit it even before the embedded server is up.
 * Decided once per process (after loadDevEnv has read .env). */
export function devDatabaseTarget(): { url: string; adminUrl: string; embedded: boolean } {
  if (!target) {
    if (process.env.DATABASE_URL) {
      target = { url: process.env.DATABASE_URL, adminUrl: withDatabase(process.env.DATABASE_URL, "postgres"), embedded: false };
    } else {
      const adminUrl = `postgresql://postgres:postgres@127.0.0.1:${DEV_PG_PORT}/postgres`;
      target = { url: withDatabase(adminUrl, DEV_DB_NAME), adminUrl, embedded: true };
      process.env.DATABASE_URL = target.url;
    }
  }
  return target;
}
let target: { url: string; adminUrl: string; embedded: boolean } | null = null;

/** DATABASE_URL, or the embedded dev database (started here when not already running). */
export async function devDatabase(): Promise<{ url: string; server: Server | null; adminUrl: string; embedded: boolean }> {
  const where = devDatabaseTarget();
  if (!where.embedded) return { ...where, server: null };
  const server = (await portOpen(DEV_PG_PORT)) ? null : await startEmbedded(DEV_PG_DIR, DEV_PG_PORT);
  return { ...where, server };
}

/**
 * The worker's and the operator CLIs' configuration and database. In development (NODE_ENV anything but production):
 * loadDevEnv, then DATABASE_URL or the embedded database. With NODE_ENV=production: the variables as the deployment
 * set them, checked up front as `npm start` checks them (lib/env.ts) — no secret is generated (one made up here would
 * sign tokens and seal secrets no other process can read), no embedded PostgreSQL is started (the work would land in
 * a database nobody else uses): a wrong or missing variable is named, without a stack, and the process exits 1.
 */
export async function scriptDatabase(): Promise<{ url: string; server: Server | null; adminUrl: string; embedded: boolean }> {
  if (process.env.NODE_ENV !== "production") {
    loadDevEnv();
    return devDatabase();
  }
  // Imported here: `npm run dev` (scripts/start-demo.ts) imports this module before it spawns the server and needs no zod.
  const { getEnv } = await import("@/lib/env");
  try {
    getEnv();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  return { ...devDatabaseTarget(), server: null }; // DATABASE_URL is set (checked): never the embedded database
}

/** Creates the database if it is missing and applies the migrations it has not applied yet. */
export async function prepareDatabase(db: { url: string; adminUrl: string }): Promise<{ created: boolean; migrated: number }> {
  const name = new URL(db.url).pathname.slice(1);
  const exists = await databaseExists(db.adminUrl, name);
  if (!exists) await createDatabase(db.adminUrl, name);
  return { created: !exists, migrated: await ensureMigrated(db.url) };
}
