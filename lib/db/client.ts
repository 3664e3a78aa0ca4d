import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import pg from "pg";
import { getEnv } from "@/lib/env";
import { closeSocket, dropBrokenConnections } from "./broken-connections";
import { ambientClient, requestTransactionOptions } from "./transaction";

// One Prisma client per process (kept on globalThis so Next's dev reloads do not open new pools).
// engineType = "client" + the pg driver adapter: no native query engine is needed.

type SidePool = { prisma: PrismaClient; pool: pg.Pool };
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient; pgPool?: pg.Pool; side?: Partial<Record<SidePurpose, SidePool>> };

function createClient(): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool()), transactionOptions: requestTransactionOptions() });
}

/**
 * Every wait on the database is bounded, so that a request answers 503 (lib/db/availability.ts) instead of hanging:
 * - a connection: DATABASE_CONNECT_TIMEOUT_MS (pg's default is to wait for ever), with the database down or the pool
 *   exhausted;
 * - a statement, lock waits included: DATABASE_STATEMENT_TIMEOUT_MS, enforced by PostgreSQL (statement_timeout), which
 *   cancels it and answers 57014;
 * - an answer: when none comes DATABASE_ANSWER_MARGIN_MS after that (the database or the network gone silent — a
 *   failover, a dropped flow — where no cancel can arrive either), the driver gives up (query_timeout: "Query read
 *   timeout");
 * - a transaction left open by a process that died between statements: PostgreSQL ends the session once it has been
 *   idle in its transaction longer than any request may hold one (its lease, lib/api/route.ts, plus a margin).
 * TCP keepalive starts after 10 s of silence, so a dead idle connection is found before the pool hands it out.
 */
export function connectionOptions(env = getEnv()): pg.PoolConfig {
  const idleInTransactionMs = (env.IDEMPOTENCY_LEASE_SECONDS + 30) * 1000;
  return {
    connectionString: env.DATABASE_URL,
    connectionTimeoutMillis: env.DATABASE_CONNECT_TIMEOUT_MS,
    query_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS + DATABASE_ANSWER_MARGIN_MS,
    statement_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: idleInTransactionMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

/** How much longer than its statement timeout the driver waits for an answer before calling the database silent. */
export const DATABASE_ANSWER_MARGIN_MS = 2000;

/** The pg pool behind Prisma: lib/db/sql.ts runs hot statements on it directly (Prisma adds ~0.6–1 ms each). */
export function pool(): pg.Pool {
  if (globalForPrisma.pgPool) return globalForPrisma.pgPool;
  const env = getEnv();
  globalForPrisma.pgPool = new pg.Pool({ ...connectionOptions(env), max: env.DATABASE_POOL_SIZE });
  dropBrokenConnections(globalForPrisma.pgPool);
  // An idle client losing its connection (the database restarted) must not crash the process.
  globalForPrisma.pgPool.on("error", () => undefined);
  return globalForPrisma.pgPool;
}

/** Whether the database answers now: a SELECT 1 on a connection of its own (not the pool's: a busy pool says nothing
 *  about the database), within PROBE_DEADLINE_MS to connect and as much to answer; throws otherwise. */
export async function probeDatabase(): Promise<void> {
  const client = new pg.Client({ ...connectionOptions(), connectionTimeoutMillis: PROBE_DEADLINE_MS, query_timeout: PROBE_DEADLINE_MS });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    void client.end().catch(() => undefined);
  } catch (err) {
    closeSocket(client);
    throw err;
  }
}

const PROBE_DEADLINE_MS = 2000;

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
 * For what must commit on its own while the caller's transaction holds a connection of the main pool. On the main pool,
 * as many such requests as it has connections would each hold one and wait for another — none would get it, and all
 * would answer 503 once the connect timeout passed. A small pool of its own (SIDE_POOL_SIZE connections) cannot be
 * exhausted by the requests waiting on it. Several, so that none can starve another:
 * - "write-ahead": the payroll calls written ahead (lib/payroll/reservation-recovery.ts, endorsement-recovery.ts) and a
 *   contract number taken before an averbação — single short statements, production's among them;
 * - "sandbox-repasse": each contract's month of a sandbox repasse run (lib/payroll/repasse.ts), a transaction that may
 *   wait on contract locks — sandbox traffic must never hold production's write-ahead connections;
 * - "counters-sandbox" / "counters-production": a boleto's nosso número, one statement committed on its own.
 */
export function sideDb(purpose: SidePurpose = "write-ahead"): PrismaClient {
  return side(purpose).prisma;
}

/** The pg pool of a side pool, for plain SQL (lib/db/sql.ts `queryCommitted`). */
export function sidePool(purpose: SidePurpose): pg.Pool {
  return side(purpose).pool;
}

function side(purpose: SidePurpose): { prisma: PrismaClient; pool: pg.Pool } {
  const existing = globalForPrisma.side?.[purpose];
  if (existing) return existing;
  const env = getEnv();
  const pool = new pg.Pool({ ...connectionOptions(env), max: SIDE_POOL_SIZE });
  dropBrokenConnections(pool);
  pool.on("error", () => undefined);
  const made = { prisma: new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: requestTransactionOptions() }), pool };
  globalForPrisma.side = { ...globalForPrisma.side, [purpose]: made };
  return made;
}

/** "counters-<environment>": a number taken from a counter row (a boleto's nosso número) committed at once, whatever
 *  transaction the caller is in (lib/db/sql.ts `queryCommitted`) — one pool per environment, so a sandbox burst of
 *  boletos cannot make production's wait. */
export type SidePurpose = "write-ahead" | "sandbox-repasse" | "counters-sandbox" | "counters-production";
const SIDE_POOL_SIZE = 3;

export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export async function disconnectDb(): Promise<void> {
  await globalForPrisma.prisma?.$disconnect();
  globalForPrisma.prisma = undefined;
  const open = globalForPrisma.pgPool;
  globalForPrisma.pgPool = undefined;
  if (open && !open.ended) await open.end();
  const sides = Object.values(globalForPrisma.side ?? {});
  globalForPrisma.side = undefined;
  for (const side of sides) {
    await side.prisma.$disconnect();
    if (!side.pool.ended) await side.pool.end();
  }
}
