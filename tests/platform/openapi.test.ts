import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openapi/document";
import { OPERATIONS } from "@/lib/api/operations";
import { REQUEST_ID } from "@/lib/api/request-input";
import { REASONS as DOCUMENT_REASONS } from "@/lib/customers/document";
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

type Schema = { type?: string | string[]; format?: string; minimum?: number; maximum?: number; [key: string]: unknown };
type Doc = {
  components: { schemas: Record<string, { properties: Record<string, Schema> }> };
  paths: Record<string, Record<string, { parameters: { name: string; in: string; schema: Schema }[]; responses: Record<string, { description: string; headers?: Record<string, unknown> }> }>>;
};

/** Every integer schema anywhere in the document, with where it is. */
function integers(node: unknown, where = "#"): [string, Schema][] {
  if (Array.isArray(node)) return node.flatMap((v, i) => integers(v, `${where}/${i}`));
  if (typeof node !== "object" || node === null) return [];
  const here = node as Schema;
  const own: [string, Schema][] = here.type === "integer" || (Array.isArray(here.type) && here.type.includes("integer")) ? [[where, here]] : [];
  return [...own, ...Object.entries(node).flatMap(([k, v]) => integers(v, `${where}/${k}`))];
}

describe("OpenAPI document: what generated clients read", () => {
  const doc = () => JSON.parse(JSON.stringify(openApiDocument())) as Doc;

  it("gives every integer a format: int64 for money and anything unbounded, int32 only within 32-bit bounds", () => {
    const d = doc();
    expect(d.components.schemas.Payment!.properties.amount!.format).toBe("int64");
    expect(d.components.schemas.Assignment!.properties.face_value!.format).toBe("int64");
    expect(d.components.schemas.CreateAssignmentBody!.properties.price!.format).toBe("int64"); // bounded, but above 2^31
    expect(d.components.schemas.CreateSimulationBody!.properties.term!.format).toBe("int32");
    const limit = d.paths["/v1/customers"]!.get!.parameters.find((p) => p.name === "limit")!;
    expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, format: "int32" });
    const all = integers(d);
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter(([, s]) => s.format === undefined).map(([where]) => where)).toEqual([]);
    const wide = all.filter(([, s]) => s.format === "int32" && !(typeof s.minimum === "number" && typeof s.maximum === "number" && s.minimum >= -(2 ** 31) && s.maximum < 2 ** 31));
    expect(wide.map(([where]) => where)).toEqual([]);
    expect(integers((d as unknown as { webhooks: unknown }).webhooks).length).toBeGreaterThan(0); // the webhooks' bodies were walked too
  });

  it("publishes X-Request-Id and Idempotency-Key with the pattern and length the wrapper enforces", () => {
    const post = doc().paths["/v1/customers"]!.post!;
    for (const name of ["X-Request-Id", "Idempotency-Key"]) {
      expect(post.parameters.find((p) => p.name === name)!.schema).toMatchObject({ type: "string", pattern: REQUEST_ID.source, maxLength: 255 });
    }
  });

  it("lists the `invalid_document` reasons the customers module sends", () => {
    const reason = (doc().components.schemas.Problem!.properties.reason as { description: string }).description;
    for (const code of Object.keys(DOCUMENT_REASONS)) expect(reason).toContain(`\`${code}\``);
    expect(reason).not.toMatch(/`(length|check_digits|characters)`/);
  });

  it("puts the X-RateLimit-* headers on every answer after authentication, and only there", () => {
    const d = doc();
    const headers = (path: string, method: string, status: string) => Object.keys(d.paths[path]![method]!.responses[status]!.headers ?? {});
    for (const [path, method, status] of [
      ["/v1/customers", "post", "400"],
      ["/v1/customers", "post", "403"],
      ["/v1/customers", "post", "409"],
      ["/v1/customers", "post", "422"],
      ["/v1/customers/{id}", "get", "404"],
      ["/v1/health", "get", "403"],
    ] as const) {
      expect(headers(path, method, status), `${method} ${path} ${status}`).toEqual(expect.arrayContaining(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id"]));
    }
    for (const status of ["401", "413", "415", "421"]) expect(headers("/v1/customers", "post", status), status).not.toContain("X-RateLimit-Limit");
  });

  it("documents createEndorsement's 422 disbursement_date_passed", () => {
    expect(doc().paths["/v1/payroll/endorsements"]!.post!.responses["422"]!.description).toContain("`disbursement_date_passed`");
  });
});
