import { AsyncLocalStorage } from "node:async_hooks";
import type { PrismaClient } from "@prisma/client";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log";
import type { Tx } from "./client";

// The ambient transaction of an idempotent /v1 write. The wrapper (lib/api/route.ts) runs the handler inside
// one database transaction and writes the idempotency record's stored response in that same transaction, so a
// crash leaves either both or neither (Stripe's "atomic phases"). Services need not know: while a handler runs
// inside it, `db()` answers with this transaction — every read and write of the request uses its one
// connection (no second pool connection per request, no deadlock on a full pool), and a service's own
// `db().$transaction(fn)` joins it instead of opening another.

const ambient = new AsyncLocalStorage<PrismaClient>();
const joined = new WeakMap<object, PrismaClient>();

/** The client for `tx` as services see it: `$transaction(fn)` runs fn in tx; an array runs in order in tx. */
function joinedClient(tx: Tx): PrismaClient {
  let client = joined.get(tx);
  if (!client) {
    const join = async (arg: unknown) => {
      if (typeof arg === "function") return (arg as (t: Tx) => Promise<unknown>)(tx);
      const results: unknown[] = [];
      for (const query of arg as Promise<unknown>[]) results.push(await query);
      return results;
    };
    client = new Proxy(tx, {
      get: (target, prop, receiver) => (prop === "$transaction" ? join : Reflect.get(target, prop, receiver)),
    }) as unknown as PrismaClient;
    joined.set(tx, client);
  }
  return client;
}

export function ambientClient(): PrismaClient | undefined {
  return ambient.getStore();
}

const afterwards = new AsyncLocalStorage<(() => Promise<unknown>)[]>();

/** Runs fn inside `client.$transaction` with that transaction made ambient for everything fn calls; then, committed or
 *  rolled back, what fn left for afterwards (afterAmbientTransaction), on the root client. */
export async function runInAmbientTransaction<T>(
  client: PrismaClient,
  fn: (tx: Tx) => Promise<T>,
  options: { maxWait: number; timeout: number },
): Promise<T> {
  const later: (() => Promise<unknown>)[] = [];
  try {
    return await client.$transaction((tx) => afterwards.run(later, () => ambient.run(joinedClient(tx), () => fn(tx))), options);
  } finally {
    for (const work of later) await work().catch((err: unknown) => log().error({ err: err instanceof Error ? err.message : String(err) }, "work after a request's transaction failed"));
  }
}

/**
 * Runs `work` once the ambient transaction has ended — committed or rolled back — or now when there is none: for what
 * must hold whatever the request's outcome and cannot wait in it (it would roll back with the refused request, and on
 * a connection of its own it would wait for the locks the request holds). E.g. a proposal found lapsed by a refused
 * action is closed as `expired`, so that a GET shows what the 409 said. Best effort: a failure is logged (the job
 * catches up).
 */
export async function afterAmbientTransaction(work: () => Promise<unknown>): Promise<void> {
  const later = afterwards.getStore();
  if (later && ambient.getStore()) later.push(work);
  else await work();
}

/**
 * An idempotent request's transaction (lib/api/route.ts): a connection within DATABASE_CONNECT_TIMEOUT_MS, the whole
 * transaction within the idempotency lease. Also a service's own transaction that may run long (an assignment of up to
 * 1,000 contracts priced installment by installment), which joins the request's when there is one: Prisma's default of
 * 5 s failed such a request without X-Request-Id every time, with a 503 no retry could fix. It is every client's default
 * too (lib/db/client.ts): a transaction opened without options — a request without X-Request-Id, a panel action, a job —
 * has the same budget (a webhook recovery of 10,000 deliveries, 4.5 s on a quiet machine, ran out of Prisma's 5 s on a
 * busy one).
 */
export function requestTransactionOptions(): { maxWait: number; timeout: number } {
  const { DATABASE_CONNECT_TIMEOUT_MS, IDEMPOTENCY_LEASE_SECONDS } = getEnv();
  return { maxWait: DATABASE_CONNECT_TIMEOUT_MS, timeout: IDEMPOTENCY_LEASE_SECONDS * 1000 };
}
