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

  // Once: Ctrl-C reaches this process and `npm run dev`'s script, which then sends SIGTERM too; a second
  // app.close() settled at once and exited before the first had written the compile cache.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close();
    // Work requests started without waiting (lib/jobs/background.ts) ends before Next and the process do.
    void backgroundSettled()
      .then(() => app.close())
      .finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 15_000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

/** TRUST_PROXY, read once; false while the configuration is wrong (development reports that on the first request). */
function trustsProxy(): boolean {
  try {
    return getEnv().TRUST_PROXY;
  } catch {
    return false;
  }
}
