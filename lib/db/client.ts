import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { getEnv } from "@/lib/env";
import { ambientClient } from "./transaction";

// One Prisma client per process (kept on globalThis so Next's dev reloads do not open new pools).
// engineType = "client" + the pg driver adapter: no native query engine is needed.

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

// A bounded wait for a connection (pg's default is to wait forever): with the database down or the pool
// exhausted, a request fails within DATABASE_CONNECT_TIMEOUT_MS and answers 503 (lib/db/availability.ts).
function createClient(): PrismaClient {
  const env = getEnv();
  const adapter = new PrismaPg({
    connectionString: env.DATABASE_URL,
    max: env.DATABASE_POOL_SIZE,
    connectionTimeoutMillis: env.DATABASE_CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  return new PrismaClient({ adapter });
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
}
