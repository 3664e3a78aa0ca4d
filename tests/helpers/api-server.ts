import path from "node:path";
import type { RouteHandler } from "@/lib/api/route";
import { ROUTE_TABLE } from "@/lib/api/route-table";
import { createHandlerServer, type Routes } from "./serve-handlers";

// Every /v1 route handler of app/v1, served over node:http in a process of its own — the real wrapper, services
// and database, routed by the same path templates as the app (lib/api/route-table.ts) — for the SDKs' tests,
// which need an HTTP server but not the panel (a `next dev` would compile 60 routes first). Started with
// `node --import tsx tests/helpers/api-server.ts`; PORT and DATABASE_URL from the environment; prints "listening".

const routes: Routes = {};
for (const template of Object.keys(ROUTE_TABLE)) {
  const file = path.join(import.meta.dirname, "..", "..", "app", ...template.split("/").filter(Boolean).map((s) => s.replace(/^\{(\w+)\}$/, "[$1]")), "route.ts");
  const handlers = (await import(file)) as Record<string, RouteHandler>;
  routes[template] = Object.fromEntries(["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => handlers[m]).map((m) => [m, handlers[m]!]));
}
const server = createHandlerServer(routes);
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
