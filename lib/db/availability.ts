import { log } from "@/lib/log";

// Whether an error means "the database cannot be reached right now" (a 503 the client may retry) rather
// than a bug (a 500), and one log line per outage instead of one per failed request.
//
// The errors come in three wrappings: Prisma's (P1001 unreachable, P1002/P1008 timeouts, P1017 connection
// closed, P2024 pool timeout, P2028 a transaction that could not start in time, or a driver-adapter error
// kind in `meta.driverAdapterError.cause`), node-postgres'
// (SQLSTATE class 08 connection exceptions, 57P01–57P03 shutdown / starting up, 53300 too many connections;
// or its own messages for a terminated connection or a connect timeout), and Node's socket errors.

const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2028"]);
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Can't reach database server|Client has encountered a connection error|Connection ended unexpectedly|the database system is (?:shutting down|starting up)|terminating connection due to administrator command/i;

type Loose = { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };

function matches(value: Loose): boolean {
  const code = typeof value.code === "string" ? value.code : "";
  if (PRISMA_CODES.has(code) || SQLSTATES.has(code) || SOCKET_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  if (typeof value.kind === "string" && ADAPTER_KINDS.has(value.kind)) return true;
  if (value.kind === "postgres" && (SQLSTATES.has(code) || /^08/.test(code))) return true;
  return typeof value.message === "string" && MESSAGES.test(value.message);
}

export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const value = queue.shift();
    if (!value || typeof value !== "object" || seen.has(value)) continue;
    seen.add(value);
    const loose = value as Loose;
    if (matches(loose)) return true;
    queue.push(loose.cause, loose.meta?.driverAdapterError);
    if (value instanceof AggregateError) queue.push(...value.errors);
  }
  return false;
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
