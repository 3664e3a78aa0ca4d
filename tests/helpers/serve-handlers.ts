import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RouteHandler } from "@/lib/api/route";

// Serves route handlers over real HTTP, the way Next hands them a Request: for tests whose client is a real
// HTTP library (OAuth2 clients) or whose server must be a separate process (kill -9). `base` is the address the
// handlers see (its host picks the environment), whatever loopback port the server really listens on.

export type Routes = Record<string, Partial<Record<string, RouteHandler>>>;

/** The handlers of a path: an exact key, or a template key (`/v1/customers/{id}`) with its parameters; static
 *  segments win over parameters, as in Next's router. */
function matcher(routes: Routes) {
  const templates = Object.keys(routes)
    .filter((key) => key.includes("{"))
    .map((key) => ({ key, names: [...key.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!), regex: new RegExp(`^${key.replace(/\./g, "\\.").replace(/\{\w+\}/g, "([^/]+)")}$`) }))
    .sort((a, b) => a.names.length - b.names.length);
  return (pathname: string): { handlers: Routes[string]; params: Record<string, string> } | null => {
    if (routes[pathname]) return { handlers: routes[pathname], params: {} };
    for (const t of templates) {
      const m = t.regex.exec(pathname);
      if (m) return { handlers: routes[t.key]!, params: Object.fromEntries(t.names.map((name, i) => [name, decodeURIComponent(m[i + 1]!)])) };
    }
    return null;
  };
}

export function createHandlerServer(routes: Routes, base: string | null = null): http.Server {
  const match = matcher(routes);
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", base ?? `http://${req.headers.host ?? "localhost"}`);
        const route = match(url.pathname);
        const handler = route?.handlers[req.method ?? "GET"];
        if (!handler) {
          res.writeHead(404).end();
          return;
        }
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
        if (base) headers.set("host", new URL(base).host);
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const response = await handler(new Request(url, { method: req.method, headers, body }), { params: Promise.resolve(route!.params) });
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })();
    });
  });
}

/** Listens on a free loopback port; resolves with the server's own URL and a close function. */
export async function serveHandlers(routes: Routes, base: string | null = null): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createHandlerServer(routes, base);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
