import pg from "pg";
import type { Tx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log";

// Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY: a revocation committed by any process
// (panel, CLI, another server) reaches every server's in-memory credential cache at commit time.
// While the listener is not connected, `isListening()` is false and callers must not trust their caches.

const CHANNEL = "credential_invalidation";

type State = {
  client?: pg.Client;
  listening: boolean;
  starting?: Promise<void>;
  handlers: Set<(payload: string) => void>;
  stopped: boolean;
};

const globalState = globalThis as unknown as { __cpNotify?: State };
const state: State = (globalState.__cpNotify ??= { listening: false, handlers: new Set(), stopped: false });

export function isListening(): boolean {
  return state.listening;
}

export function onInvalidation(handler: (payload: string) => void): void {
  state.handlers.add(handler);
}

/** Sends an invalidation inside a transaction: delivered to listeners only if the transaction commits. */
export async function notifyInvalidation(tx: Tx, payload: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${CHANNEL}, ${payload})`;
}

export function startListener(): Promise<void> {
  if (state.listening || state.stopped) return Promise.resolve();
  state.starting ??= connect().finally(() => {
    state.starting = undefined;
  });
  return state.starting;
}

async function connect(): Promise<void> {
  const client = new pg.Client({ connectionString: getEnv().DATABASE_URL });
  const lost = (err?: Error) => {
    if (state.client !== client) return;
    state.listening = false;
    state.client = undefined;
    for (const h of state.handlers) h("*"); // drop everything: we may have missed notifications
    if (err) log().warn({ err: err.message }, "credential invalidation listener lost; retrying");
    if (!state.stopped) setTimeout(() => void startListener(), 1000).unref();
  };
  client.on("error", lost);
  client.on("end", () => lost());
  client.on("notification", (msg) => {
    for (const h of state.handlers) h(msg.payload ?? "*");
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    // Make sure an idle listener never keeps a CLI or test process alive.
    (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
    state.client = client;
    state.listening = true;
  } catch (err) {
    await client.end().catch(() => undefined);
    log().warn({ err: (err as Error).message }, "credential invalidation listener failed to start");
    if (!state.stopped) setTimeout(() => void startListener(), 1000).unref();
  }
}

export async function stopListener(): Promise<void> {
  state.stopped = true;
  state.listening = false;
  const client = state.client;
  state.client = undefined;
  await client?.end().catch(() => undefined);
}
