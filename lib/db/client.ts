import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import pg from "pg";
import { getEnv } from "@/lib/env";
import { ambientClient } from "./transaction";

// One Prisma client per process (kept on globalThis so Next's dev reloads do not open new pools).
// engineType = "client" + the pg driver adapter: no native query engine is needed.

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient; pgPool?: pg.Pool; side?: { prisma: PrismaClient; pool: pg.Pool } };

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

/**
 * For what must commit on its own while the caller's transaction holds a connection of the main pool: the payroll
 * calls written ahead (lib/payroll/reservation-recovery.ts, endorsement-recovery.ts) and a contract number taken
 * before an averbação. On the main pool, as many such requests as it has connections would each hold one and wait
 * for another — none would get it, and all would answer 503 once the connect timeout passed. A small pool of its
 * own (SIDE_POOL_SIZE connections, each statement short) cannot be exhausted by the requests waiting on it.
 */
export function sideDb(): PrismaClient {
  if (globalForPrisma.side) return globalForPrisma.side.prisma;
  const env = getEnv();
  const side = new pg.Pool({ connectionString: env.DATABASE_URL, max: SIDE_POOL_SIZE, connectionTimeoutMillis: env.DATABASE_CONNECT_TIMEOUT_MS, keepAlive: true });
  side.on("error", () => undefined);
  globalForPrisma.side = { prisma: new PrismaClient({ adapter: new PrismaPg(side) }), pool: side };
  return globalForPrisma.side.prisma;
}

const SIDE_POOL_SIZE = 3;

export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export async function disconnectDb(): Promise<void> {
  await globalForPrisma.prisma?.$disconnect();
  globalForPrisma.prisma = undefined;
  const open = globalForPrisma.pgPool;
  globalForPrisma.pgPool = undefined;
  if (open && !open.ended) await open.end();
  const side = globalForPrisma.side;
  globalForPrisma.side = undefined;
  if (side) {
    await side.prisma.$disconnect();
    if (!side.pool.ended) await side.pool.end();
  }
}
