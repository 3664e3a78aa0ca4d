import http from "node:http";
import type { AddressInfo } from "node:net";

// A local webhook receiver: records every request (headers and raw body) and answers what `respond` says
// (default 200 "ok"). Used by the delivery tests, the worker kill test, the browser journey and the bench.

export type Received = { path: string; headers: Record<string, string>; body: string; at: number };
export type Respond = (req: Received) => { status: number; body?: string; headers?: Record<string, string>; delayMs?: number };

export async function startReceiver(respond: Respond = () => ({ status: 200, body: "ok" })) {
  const received: Received[] = [];
  let responder = respond;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry: Received = { path: req.url ?? "/", headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(entry);
      const answer = responder(entry);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    received,
    respondWith(next: Respond) {
      responder = next;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
