import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openapi/document";
import { OPERATIONS } from "@/lib/api/operations";
import type { RouteHandler } from "@/lib/api/route";
import { GET } from "@/app/v1/openapi.json/route";
import { call } from "../helpers/http";

const APP_V1 = path.resolve(import.meta.dirname, "../../app/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
// The catch-all only answers problem+json 404s for paths that do not exist.
const EXEMPT = new Set(["[...path]/route.ts"]);

function routeFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    const rel = prefix ? `${prefix}/${entry}` : entry;
    if (statSync(full).isDirectory()) return routeFiles(full, rel);
    return entry === "route.ts" ? [rel] : [];
  });
}

describe("OpenAPI document", () => {
  it("documents every exported handler under app/v1, and every documented operation has a route", async () => {
    const doc = openApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const served = new Set<string>();
    for (const file of routeFiles(APP_V1).filter((f) => !EXEMPT.has(f))) {
      const mod = (await import(path.join(APP_V1, file))) as Record<string, unknown>;
      for (const method of METHODS) {
        const handler = mod[method] as RouteHandler | undefined;
        if (!handler) continue;
        expect(handler.operation, `${method} in app/v1/${file} is not built with apiRoute/publicRoute`).toBeDefined();
        const { path: p, method: m } = handler.operation;
        expect(m).toBe(method);
        const expectedFile = `${p.replace(/^\/v1\//, "").replace(/\{(\w+)\}/g, "[$1]")}/route.ts`;
        expect(file).toBe(expectedFile);
        expect(doc.paths[p]?.[method.toLowerCase()], `${method} ${p} missing from the OpenAPI document`).toBeDefined();
        served.add(`${method} ${p}`);
      }
    }
    expect([...served].sort()).toEqual(OPERATIONS.map((o) => `${o.method} ${o.path}`).sort());
  });

  it("is served at GET /v1/openapi.json as OpenAPI 3.1 with security schemes, version and error shape", async () => {
    const res = await call(GET, { path: "/v1/openapi.json" });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.info.version).toBe("1.4.0");
    expect(Object.keys(res.body.components.securitySchemes).sort()).toEqual(["ApiKey", "OAuth2"]);
    expect(res.body.components.schemas.Problem.required).toEqual(["type", "title", "status", "detail", "code", "request_id"]);
    const health = res.body.paths["/v1/health"].get;
    expect(health.parameters.map((p: { name: string }) => p.name)).toEqual(["X-Tenant-Id", "X-Request-Id"]);
    expect(Object.keys(health.responses).sort()).toEqual(["200", "400", "401", "403", "421", "429", "500", "503"]);
    expect(health.responses["503"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/HealthUnavailable" });
    expect(Object.keys(health.responses["200"].headers).sort()).toEqual(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id"]);
    const tokenOp = res.body.paths["/v1/auth/token"].post;
    expect(Object.keys(tokenOp.requestBody.content)).toEqual(["application/x-www-form-urlencoded"]);
    expect(tokenOp.security).toEqual([]);
  });
});
