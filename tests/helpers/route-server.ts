import http from "node:http";
import * as customers from "@/app/v1/customers/route";
import * as simulations from "@/app/v1/simulations/route";
import type { RouteHandler } from "@/lib/api/route";

// A server process for fault tests (kill -9 mid-write, then restart): it serves the real /v1 route handlers
// — wrapper, services, database — over node:http, the way Next hands them a Request. Only the routes the
// fault tests write to are mounted. Started with `node --import tsx tests/helpers/route-server.ts`; PORT and
// DATABASE_URL come from the environment; prints "listening" when ready.

const ROUTES: Record<string, Partial<Record<string, RouteHandler>>> = {
  "/v1/customers": { GET: customers.GET, POST: customers.POST },
  "/v1/simulations": { GET: simulations.GET, POST: simulations.POST },
};

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    void (async () => {
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
      const handler = ROUTES[url.pathname]?.[req.method ?? "GET"];
      if (!handler) {
        res.writeHead(404).end();
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const response = await handler(new Request(url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
});

server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
