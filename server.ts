import path from "node:path";
import { createEdgeServer } from "@/lib/http/edge-server";

// The app's HTTP server: Node's server with the edge checks (lib/http/edge-server.ts) in front of Next's
// request handler, for the panel and /v1 alike.
//
//   npm start                     production: serves the build of `npm run build` (NODE_ENV=production)
//   tsx server.ts --dev           development (Turbopack, hot reload); `npm run dev` starts it this way
//
// PORT (default 3000) and LISTEN_HOST (default: every interface; not HOSTNAME, which shells and containers set
// to the machine's name).

const dev = process.argv.includes("--dev");
// Next reads NODE_ENV while loading: set it before importing next (typed read-only by Next's types).
(process.env as Record<string, string>).NODE_ENV ??= dev ? "development" : "production";

function port(): number {
  const raw = process.env.PORT ?? "3000";
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 65535) {
    console.error(`PORT must be a TCP port number (1–65535), got "${raw}"`);
    process.exit(1);
  }
  return n;
}

const listenPort = port();
const hostname = process.env.LISTEN_HOST || undefined;
const { default: next } = await import("next");

let handle: ((...args: Parameters<ReturnType<ReturnType<typeof next>["getRequestHandler"]>>) => Promise<void>) | null = null;
// Listen first (as `next start` does): requests wait for Next to be ready instead of being refused.
let ready: Promise<void> = Promise.resolve();
const server = createEdgeServer(async (req, res) => {
  await ready;
  await handle!(req, res);
});
const app = next({ dev, dir: path.dirname(new URL(import.meta.url).pathname), hostname: hostname ?? "localhost", port: listenPort, httpServer: server });
ready = app.prepare().then(() => {
  handle = app.getRequestHandler();
});

server.on("error", (err) => {
  console.error(`The server could not start: ${err.message}`);
  process.exit(1);
});
server.listen(listenPort, hostname, () => {
  console.log(`▶ ${dev ? "development" : "production"} server listening on ${hostname ?? "every interface"}, port ${listenPort}`);
});
ready.catch((err: unknown) => {
  console.error("Next could not start:", err);
  process.exit(1);
});

const stop = () => {
  server.close();
  void app.close().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
