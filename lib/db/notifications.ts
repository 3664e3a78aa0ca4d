import pg from "pg";
import type { Tx } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { isDatabaseUnavailable, reportDatabaseDown, reportDatabaseUp } from "@/lib/db/availability";
import { closeSocket } from "@/lib/db/broken-connections";
import { log } from "@/lib/log";

// Cross-process cache invalidation over PostgreSQL LISTEN/NOTIFY: a revocation committed by any process
// (panel, CLI, another server) reaches every server's in-memory credential cache at commit time.
// While the listener is not connected, `isListening()` is false and callers must not trust their caches.

const CHANNEL = "credential_invalidation";

type State = {
  client?: pg.Client;
  listening: boolean;
  starting?: Promise<void>;
  /** A reconnection is scheduled: requests must not start one each (an outage would become a storm). */
  retry?: NodeJS.Timeout;
  failures: number;
  handlers: Set<(payload: string) => void>;
  stopped: boolean;
  /** Counts successful LISTENs: a change means notifications may have been missed in between. */
  epoch: number;
  heartbeat?: NodeJS.Timeout;
};

const globalState = globalThis as unknown as { __cpNotify?: State };
const state: State = (globalState.__cpNotify ??= { listening: false, failures: 0, handlers: new Set(), stopped: false, epoch: 0 });

// Reconnection backoff: 0.5 s, 1 s, 2 s … capped at 15 s, with ±20% jitter so that many servers do not
// reconnect in step after an outage.
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 15_000;

// A connection the network silently dropped (a failover, a NAT forgetting the flow: no FIN, no error) hears no
// notification and says nothing; TCP keepalive finds it only after minutes of probes. Meanwhile caches would serve
// what a revocation changed. So the listener asks for an answer every HEARTBEAT_MS, and a connection that gives none
// within HEARTBEAT_DEADLINE_MS is dropped like a lost one (caches off, the database reported down, reconnect): a
// revocation reaches every cache within about HEARTBEAT_MS + HEARTBEAT_DEADLINE_MS even then.
const HEARTBEAT_MS = 10_000;
const HEARTBEAT_DEADLINE_MS = 3_000;

export function isListening(): boolean {
  return state.listening;
}

/** Which connection is listening (it changes at every successful LISTEN), or null while none is. A cache may keep
 *  a value read under epoch E only if the epoch is still E: across a reconnect, notifications of changes committed
 *  while disconnected were never delivered, so a value read before the reconnect may already be stale. */
export function listenerEpoch(): number | null {
  return state.listening ? state.epoch : null;
}

export function onInvalidation(handler: (payload: string) => void): void {
  state.handlers.add(handler);
}

/** Sends an invalidation inside a transaction: delivered to listeners only if the transaction commits. */
export async function notifyInvalidation(tx: Tx, payload: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_notify(${CHANNEL}, ${payload})`;
}

export function startListener(): Promise<void> {
  if (state.listening || state.stopped || state.retry) return state.starting ?? Promise.resolve();
  state.starting ??= connect().finally(() => {
    state.starting = undefined;
  });
  return state.starting;
}

function scheduleRetry(): void {
  if (state.stopped || state.retry) return;
  const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(state.failures, 10)) * (0.8 + Math.random() * 0.4);
  state.retry = setTimeout(() => {
    state.retry = undefined;
    void startListener();
  }, delay).unref();
}

function failed(err: unknown, what: string): void {
  state.failures += 1;
  if (isDatabaseUnavailable(err)) reportDatabaseDown(err);
  else if (state.failures === 1) log().warn({ err: (err as Error)?.message }, what);
  scheduleRetry();
}

async function connect(): Promise<void> {
  // keepAlive: a connection silently dropped by the network (no FIN: a failover, a NAT timeout) is detected and
  // answered with a reconnect; without it the listener would report itself listening while hearing nothing.
  const client = new pg.Client({
    connectionString: getEnv().DATABASE_URL,
    connectionTimeoutMillis: getEnv().DATABASE_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  const lost = (err?: Error) => {
    if (state.client !== client) return;
    clearInterval(state.heartbeat);
    state.listening = false;
    state.client = undefined;
    for (const h of state.handlers) h("*"); // drop everything: we may have missed notifications
    failed(err ?? new Error("Connection terminated"), "credential invalidation listener lost; reconnecting");
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
    state.epoch += 1;
    state.listening = true;
    state.failures = 0;
    state.heartbeat = setInterval(() => {
      // pg reads query_timeout per query (client.js), though its types omit it.
      client.query({ text: "SELECT 1", query_timeout: HEARTBEAT_DEADLINE_MS } as pg.QueryConfig).catch((err: Error) => {
        if (state.client !== client) return;
        lost(err);
        closeSocket(client); // no answer: the socket could hang on for minutes; it is not used again
      });
    }, HEARTBEAT_MS).unref();
    for (const h of state.handlers) h("*"); // lookups that began before this LISTEN must not cache what they read
    reportDatabaseUp();
  } catch (err) {
    client.removeAllListeners("end");
    client.on("error", () => undefined);
    await client.end().catch(() => undefined);
    failed(err, "credential invalidation listener failed to start; retrying with backoff");
  }
}

export async function stopListener(): Promise<void> {
  state.stopped = true;
  clearTimeout(state.retry);
  state.retry = undefined;
  clearInterval(state.heartbeat);
  state.listening = false;
  const client = state.client;
  state.client = undefined;
  await client?.end().catch(() => undefined);
}
