import { log } from "@/lib/log";

// Whether an error means "the database cannot be reached right now" (a 503 the client may retry) rather
// than a bug (a 500), and one log line per outage instead of one per failed request.
//
// The errors come in three wrappings: Prisma's (P1001 unreachable, P1002/P1008 timeouts, P1017 connection
// closed, P2024 pool timeout, or a driver-adapter error kind in `meta.driverAdapterError.cause`), node-postgres'
// (SQLSTATE class 08 connection exceptions, 57P01–57P03 shutdown / starting up, 53300 too many connections;
// or its own messages for a terminated connection, a connect timeout, or no answer to a statement long after its
// statement_timeout — the database or the network gone silent, lib/db/client.ts), and Node's socket errors.
//
// A database that answers but took too long — a statement cancelled by its statement_timeout (57014; a lock wait
// included), a lock refused (55P03), a Prisma transaction that could not start or outlived its time (P2028), a request
// that found no free connection in its pool in time — is not an outage (`isDatabaseTimeout`): the request answers 503
// all the same, retryable, but nothing reports the database down (one slow request would otherwise log an outage, and
// mark the instance down, on a healthy database).

const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
const MESSAGES = /Query read timeout|Connection terminated|Can't reach database server|Client has encountered a connection error|Connection ended unexpectedly|the database system is (?:shutting down|starting up)|terminating connection due to administrator command/i;

type Loose = { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };

function matches(value: Loose): boolean {
  const code = typeof value.code === "string" ? value.code : "";
  if (PRISMA_CODES.has(code) || SQLSTATES.has(code) || SOCKET_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  if (typeof value.kind === "string" && ADAPTER_KINDS.has(value.kind)) return true;
  if (value.kind === "postgres" && (SQLSTATES.has(code) || /^08/.test(code))) return true;
  return typeof value.message === "string" && MESSAGES.test(value.message);
}

const TIMEOUT_CODES = new Set(["57014", "55P03", "P2028"]);
// "timeout exceeded when trying to connect" is pg-pool's for a request that waited its whole connect timeout for a
// connection of a full pool: a busy instance, not a lost database (connecting to one that is down fails otherwise).
const TIMEOUT_MESSAGES = /canceling statement due to (?:statement|lock) timeout|Transaction already closed|Unable to start a transaction in the given time|timeout exceeded when trying to connect/i;

function timedOut(value: Loose): boolean {
  if (typeof value.code === "string" && TIMEOUT_CODES.has(value.code)) return true;
  return typeof value.message === "string" && TIMEOUT_MESSAGES.test(value.message);
}

// A transaction the database ended to break a deadlock (40P01) or a serialization failure (40001; Prisma's P2034, the
// pg adapter's TransactionWriteConflict): nothing of it was committed, and the same request sent again may succeed.
const CONFLICT_CODES = new Set(["40P01", "40001", "P2034"]);

function conflicted(value: Loose & { originalCode?: unknown }): boolean {
  if (value.kind === "TransactionWriteConflict") return true;
  return [value.code, value.originalCode].some((code) => typeof code === "string" && CONFLICT_CODES.has(code));
}

/** The database ended this request's transaction to let another go on (a deadlock): a retryable 503, not a 500. */
export function isTransactionConflict(err: unknown): boolean {
  return inChain(err, conflicted);
}

/** Whether any error in `err`'s chain (causes, the driver adapter's, an AggregateError's) satisfies `test`. */
function inChain(err: unknown, test: (value: Loose) => boolean): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const value = queue.shift();
    if (!value || typeof value !== "object" || seen.has(value)) continue;
    seen.add(value);
    const loose = value as Loose;
    if (test(loose)) return true;
    queue.push(loose.cause, loose.meta?.driverAdapterError);
    if (value instanceof AggregateError) queue.push(...value.errors);
  }
  return false;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  return inChain(err, matches);
}

/** The database answered, but not in time (see above): a retryable 503, not an outage. */
export function isDatabaseTimeout(err: unknown): boolean {
  return !isDatabaseUnavailable(err) && inChain(err, timedOut);
}

// One warning when an outage is first seen, one info line when the database answers again.
const state = globalThis as unknown as { __cpDatabaseDownSince?: number | null };

/** `meanwhile`: what this process does until the database is back (the API answers 503; the webhook worker waits). */
export function reportDatabaseDown(err: unknown, meanwhile = "answering 503"): void {
  if (state.__cpDatabaseDownSince) return;
  state.__cpDatabaseDownSince = Date.now();
  const message = err instanceof Error ? err.message.split("\n").filter(Boolean).at(-1) : String(err);
  log().warn({ err: message }, `database unavailable: ${meanwhile} until it is back`);
}

export function reportDatabaseUp(): void {
  const since = state.__cpDatabaseDownSince;
  if (!since) return;
  state.__cpDatabaseDownSince = null;
  log().info({ outage_ms: Date.now() - since }, "database available again");
}

export function databaseDown(): boolean {
  return Boolean(state.__cpDatabaseDownSince);
}
