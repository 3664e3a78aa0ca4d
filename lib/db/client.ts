import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import pg from "pg";
import { getEnv } from "@/lib/env";
import { ambientClient } from "./transaction";

// One Prisma client per process (kept on globalThis so Next's dev reloads do not open new pools).
// engineType = "client" + the pg driver adapter: no native query engine is needed.

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient; pgPool?: pg.Pool };

// A bounded wait for a connection (pg's default is to wait forever): with the database down or the pool
// exhausted, a request fails within DATABASE_CONNECT_TIMEOUT_MS and answers 503 (lib/db/availability.ts).
function createClient(): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool()) });
}

/** The pg pool behind Prisma: lib/db/sql.ts runs hot statements on it directly (Prisma adds ~0.6–1 ms each). */
export function pool(): pg.Pool {
  if (globalForPrisma.pgPool) return globalForPrisma.pgPool;
  const env = getEnv();
  globalForPrisma.pgPool = new pg.Pool({
    connectionString: env.DATABASE_URL,
    max: env.DATABASE_POOL_SIZE,
    connectionTimeoutMillis: env.DATABASE_CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle client losing its connection (the database restarted) must not crash the process.
  globalForPrisma.pgPool.on("error", () => undefined);
  return globalForPrisma.pgPool;
}

/** The process's client — or, inside an idempotent /v1 write, that request's transaction (lib/db/transaction.ts). */
export function db(): PrismaClient {
  const ambient = ambientClient();
  if (ambient) return ambient;
  globalForPrisma.prisma ??= createClient();
  return globalForPrisma.prisma;
}

/** The process's own client, never the ambient transaction (the idempotency claim commits on its own). */
export function rootDb(): PrismaClient {
  globalForPrisma.prisma ??= createClient();
  return globalForPrisma.prisma;
}

export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export async function disconnectDb(): Promise<void> {
  await globalForPrisma.prisma?.$disconnect();
  globalForPrisma.prisma = undefined;
  const open = globalForPrisma.pgPool;
  globalForPrisma.pgPool = undefined;
  if (open && !open.ended) await open.end();
}
