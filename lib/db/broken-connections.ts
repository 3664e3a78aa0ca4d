import type pg from "pg";

// A pooled connection that lost its server while checked out must go back to the pool at once, as broken. Two ways it
// did not:
// - A statement already sent that gets no answer (the database or the network gone silent) fails in the driver after
//   its query_timeout ("Query read timeout", lib/db/client.ts), but the driver keeps the socket, waiting behind that
//   statement: Prisma's ROLLBACK on it waited a whole timeout more, and failed.
// - Prisma's pg adapter releases a transaction's connection only when its COMMIT or ROLLBACK succeeds. After a failed
//   one (the case above, or the connection reset mid-transaction) the connection was never released, and pg-pool
//   never takes back a checked-out connection: the pool lost that slot for good — a pool's worth of such transactions,
//   and the instance answered 503 until restarted.
// So every connection of the app's pools is watched: a statement that times out unanswered closes its socket, and a
// connection whose socket closes while checked out is released as broken (pg-pool then drops it and opens a fresh one
// when needed). A later release by its user — the adapter's, withSqlTransaction's — does nothing.

const READ_TIMEOUT = "Query read timeout";
const watched = new WeakSet<pg.PoolClient>();

export function dropBrokenConnections(pool: pg.Pool): void {
  pool.on("connect", (client) => watch(client as pg.PoolClient));
}

function watch(client: pg.PoolClient): void {
  if (watched.has(client)) return;
  watched.add(client);
  // pg-pool sets `release` at every checkout; each is wrapped so that it acts once, whoever calls it first.
  let release: ((err?: Error | boolean) => void) | undefined;
  let checkedOut = false;
  Object.defineProperty(client, "release", {
    configurable: true,
    get: () => release,
    set: (fn: (err?: Error | boolean) => void) => {
      checkedOut = true;
      release = (err) => {
        if (!checkedOut) return;
        checkedOut = false;
        fn(err);
      };
    },
  });
  // A lost socket makes the driver emit 'error' (with no listener, it would end the process) and then 'end'.
  client.on("error", () => undefined);
  client.on("end", () => {
    if (checkedOut) release?.(new Error("Connection lost while checked out"));
  });
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((err: unknown) => {
        if (err instanceof Error && err.message === READ_TIMEOUT) closeSocket(client);
      });
    }
    return result;
  }) as typeof client.query;
}

/** Nothing more will come on this socket that anyone waits for: close it at once (a polite end would wait on a silent
 *  socket too). On a pool's connection 'end' follows, and releases it. */
export function closeSocket(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy?: () => void } } }).connection?.stream?.destroy?.();
}
