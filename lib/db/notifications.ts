import { randomBytes } from "node:crypto";
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
// The heartbeat is a notification the listener sends itself and must hear: an answer alone proves the connection, not
// that notifications reach it. Behind a pooler in transaction mode (PgBouncer's usual mode) LISTEN succeeds and
// `SELECT 1` answers, but no notification is ever delivered (the server connection that listened is handed to other
// clients between statements): caches trusted a revocation channel that was deaf, and a revoked key kept working on
// the other instances for up to a minute. Now the listener sends itself one at LISTEN and at every heartbeat: a deaf
// one never counts as listening (caches off, lookups go to the database; logged once), and the README says the
// listener needs a direct or session-mode connection.
const HEARTBEAT_MS = 10_000;
const HEARTBEAT_DEADLINE_MS = 3_000;
const PROBE_PREFIX = "probe:";

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
    const payload = msg.payload ?? "*";
    if (payload.startsWith(PROBE_PREFIX)) return heard.get(payload)?.();
    for (const h of state.handlers) h(payload);
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    if (!(await hearsItself(client))) throw new Error("The listener did not hear its own notification");
    // Make sure an idle listener never keeps a CLI or test process alive.
    (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
    state.client = client;
    state.epoch += 1;
    state.listening = true;
    state.failures = 0;
    state.heartbeat = setInterval(() => void heartbeat(client, lost), HEARTBEAT_MS).unref();
    for (const h of state.handlers) h("*"); // lookups that began before this LISTEN must not cache what they read
    reportDatabaseUp();
  } catch (err) {
    client.removeAllListeners("end");
    client.on("error", () => undefined);
    await client.end().catch(() => undefined);
    failed(err, "credential invalidation listener failed to start; retrying with backoff");
  }
}

/** Probes waiting for their own notification, by payload. */
const heard = new Map<string, () => void>();
let probes = 0;
/** This process's probes, told from every other instance's on the channel (containers often all run as pid 1). */
const PROBE_INSTANCE = randomBytes(8).toString("hex");
/** A deaf connection is logged once per process (it reconnects, hears nothing again, every heartbeat). */
let deafReported = false;

/** Whether the listener's connection hears a notification it sends itself within HEARTBEAT_DEADLINE_MS. */
async function hearsItself(client: pg.Client): Promise<boolean> {
  const payload = `${PROBE_PREFIX}${PROBE_INSTANCE}:${(probes += 1)}`;
  let timer: NodeJS.Timeout | undefined;
  const arrived = new Promise<boolean>((resolve) => {
    heard.set(payload, () => resolve(true));
    timer = setTimeout(() => resolve(false), HEARTBEAT_DEADLINE_MS);
  });
  try {
    // pg reads query_timeout per query (client.js), though its types omit it.
    await client.query({ text: "SELECT pg_notify($1, $2)", values: [CHANNEL, payload], query_timeout: HEARTBEAT_DEADLINE_MS } as pg.QueryConfig);
    if (await arrived) return true;
    if (!deafReported) log().error("credential invalidation listener hears no notifications although its connection answers (a pooler in transaction mode?): credential caches stay off; give the app a direct or session-mode connection");
    deafReported = true;
    return false;
  } finally {
    clearTimeout(timer);
    heard.delete(payload);
  }
}

/** One heartbeat: a connection that does not answer, or answers but does not hear itself, is dropped like a lost one. */
async function heartbeat(client: pg.Client, lost: (err?: Error) => void): Promise<void> {
  let failure: Error | undefined;
  try {
    if (!(await hearsItself(client))) failure = new Error("The listener did not hear its own notification");
  } catch (err) {
    failure = err as Error;
  }
  if (!failure || state.client !== client) return;
  lost(failure);
  closeSocket(client); // no answer: the socket could hang on for minutes; it is not used again
}

/** Runs one heartbeat now (tests: the interval is 10 s). */
export async function heartbeatForTests(): Promise<void> {
  const client = state.client;
  if (client) await heartbeat(client, (err) => client.emit("error", err ?? new Error("lost")));
}

/** Runs a statement on the listener's own connection (tests: UNLISTEN makes it deaf while it still answers). */
export async function queryListenerForTests(sql: string): Promise<void> {
  await state.client?.query(sql);
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
