import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { getEnv } from "@/lib/env";
import { backgroundSettled } from "@/lib/jobs/background";
import { createEdgeServer } from "./edge-server";

// The app's HTTP server: Node's server with the edge checks (./edge-server.ts) in front of Next's request handler,
// for the panel and /v1 alike. Started by scripts/server.mjs (`npm start`, and `npm run dev` in development),
// which compiles this file with esbuild first, so that no TypeScript loader runs inside the server: tsx's module
// hooks cost every request ~25% of the throughput (Next resolves modules while it answers).

export type AppServerOptions = { dir: string; dev: boolean };

function listenPort(): number {
  const raw = process.env.PORT ?? "3000";
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 65535) {
    console.error(`PORT must be a TCP port number (1–65535), got "${raw}"`);
    process.exit(1);
  }
  return n;
}

export async function startAppServer({ dir, dev }: AppServerOptions): Promise<void> {
  // Next reads NODE_ENV while loading: set it before importing next (typed read-only by Next's types).
  (process.env as Record<string, string>).NODE_ENV ??= dev ? "development" : "production";
  const port = listenPort();
  // Not HOSTNAME, which shells and containers set to the machine's name.
  const hostname = process.env.LISTEN_HOST || undefined;
  if (!dev) {
    // Production refuses to start on a wrong configuration, naming what is wrong, instead of answering every
    // request 500 (development reports it on the first request, where the dev overlay shows it).
    try {
      getEnv();
    } catch (err) {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    }
  }
  // On Ctrl-C the dev server writes Turbopack's compile cache (.next/dev/cache) before it exits, as `next dev` does
  // when this is set; otherwise the cache is written only after a while of idleness, and a dev server stopped soon
  // after it compiled left nothing: the next start compiled every page from scratch (a later start of
  // `npm run dev` took ≈ 5 s instead of ≈ 3; README.md, Benchmark). Next reads it when the server closes.
  if (dev) process.env.__NEXT_DEV_WAIT_FOR_TURBOPACK_SHUTDOWN ??= "1";
  const { default: next } = await import("next");

  let handle: ReturnType<ReturnType<typeof next>["getRequestHandler"]> | null = null;
  // Listen first (as `next start` does): requests wait for Next to be ready instead of being refused.
  let ready: Promise<void> = Promise.resolve();
  const server = createEdgeServer(async (req, res) => {
    await ready;
    await handle!(req, res);
  }, { dev, trustProxy: trustsProxy() });
  const app = next({ dev, dir, hostname: hostname ?? "localhost", port, httpServer: server });
  const preparing = performance.now();
  ready = app.prepare().then(() => {
    handle = app.getRequestHandler();
    // The line `next start` / `next dev` print (bench/startup.ts reads it).
    console.log(`✓ Ready in ${Math.round(performance.now() - preparing)}ms`);
  });
  ready.catch((err: unknown) => {
    console.error("Next could not start:", err);
    process.exit(1);
  });

  server.on("error", (err) => {
    console.error(`The server could not start: ${err.message}`);
    process.exit(1);
  });
  server.listen(port, hostname, () => {
    console.log(`▶ ${dev ? "development" : "production"} server listening on ${hostname ?? "every interface"}, port ${port}`);
  });

  // Stopping (SIGTERM, SIGINT) lets every request in flight end before the process does: the server stops accepting
  // connections and waits for its open ones (server.close); each is closed as soon as it is idle — at once for idle
  // keep-alive ones, after its answer for the rest, and an answer given meanwhile says `Connection: close` — so a
  // keep-alive client does not hold the stop until its timeout. Upgraded connections (the dev overlay's WebSocket)
  // are not requests: closed at once, or an open browser tab would hold the stop for ever. Then the work requests
  // started without waiting for (lib/jobs/background.ts) ends, then Next closes (in development it writes Turbopack's
  // compile cache then), and the process exits 0. Next's own close() waits for no request: stopping it first cut
  // the requests in flight off. A stop that outlasts the longest a request may take (its idempotency lease,
  // IDEMPOTENCY_LEASE_SECONDS) plus STOP_MARGIN_MS exits 1.
  // Once, however many signals arrive: Ctrl-C reaches this process and `npm run dev`'s script, which then sends
  // SIGTERM too; a second app.close() settled at once and exited before the first had written the compile cache.
  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    if (stopping && !res.headersSent) res.setHeader("connection", "close");
    inFlight.add(res);
    res.once("close", () => {
      inFlight.delete(res);
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
  });
  // Tracked from when Next listens for upgrades (on its first request): a listener of ours alone would make Node hand
  // an upgrade request to nobody instead of answering it as a plain request.
  const upgraded = new Set<Duplex>();
  server.on("newListener", function trackUpgrades(event: string | symbol) {
    if (event !== "upgrade") return;
    server.off("newListener", trackUpgrades);
    server.on("upgrade", (_req: IncomingMessage, socket: Duplex) => {
      upgraded.add(socket);
      socket.once("close", () => upgraded.delete(socket));
    });
  });
  const requestsEnded = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve()); // (with ERR_SERVER_NOT_RUNNING when it never listened: nothing to wait for)
      server.closeIdleConnections();
      for (const res of inFlight) if (!res.headersSent) res.setHeader("connection", "close");
      for (const socket of upgraded) socket.destroy();
    });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const graceMs = stopGraceMs();
    setTimeout(() => {
      console.error(`The server did not stop within ${graceMs / 1000} s (a request or background work was still running): exiting`);
      process.exit(1);
    }, graceMs).unref();
    console.log("▶ stopping: letting the requests in flight end");
    void requestsEnded()
      .then(() => backgroundSettled())
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          console.error("The server did not stop cleanly:", err);
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

/** After the longest a request may take, what a stop may take more: background work ending and Next's close (which
 * in development writes Turbopack's compile cache). */
const STOP_MARGIN_MS = 15_000;

/** The longest a stop may take: a request's longest — its transaction lasts at most the idempotency lease — and the margin. */
function stopGraceMs(): number {
  let leaseSeconds = 30; // lib/env.ts's default, for a configuration that is wrong (development reports it on a request)
  try {
    leaseSeconds = getEnv().IDEMPOTENCY_LEASE_SECONDS;
  } catch {
    // the default
  }
  return leaseSeconds * 1000 + STOP_MARGIN_MS;
}

/** TRUST_PROXY, read once; false while the configuration is wrong (development reports that on the first request). */
function trustsProxy(): boolean {
  try {
    return getEnv().TRUST_PROXY;
  } catch {
    return false;
  }
}
