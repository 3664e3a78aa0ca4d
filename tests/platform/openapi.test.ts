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
      // The body is read after the caller is charged: a body it cannot read counts too.
      ["/v1/customers", "post", "413"],
      ["/v1/customers", "post", "415"],
      ["/v1/customers/{id}", "get", "404"],
      ["/v1/health", "get", "403"],
    ] as const) {
      expect(headers(path, method, status), `${method} ${path} ${status}`).toEqual(expect.arrayContaining(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id"]));
    }
    for (const status of ["401", "421"]) expect(headers("/v1/customers", "post", status), status).not.toContain("X-RateLimit-Limit");
    // The token endpoint reads its body (the client's credentials) before it knows the caller.
    for (const status of ["401", "413", "415", "421"]) expect(headers("/v1/auth/token", "post", status), status).not.toContain("X-RateLimit-Limit");
  });

  it("documents createEndorsement's 422 disbursement_date_passed", () => {
    expect(doc().paths["/v1/payroll/endorsements"]!.post!.responses["422"]!.description).toContain("`disbursement_date_passed`");
  });

  it("lists every code of each operation's 422", () => {
    const note = (path: string) => doc().paths[path]!.post!.responses["422"]!.description;
    const expected: Record<string, string[]> = {
      "/v1/payroll/margin-reservations": ["margin_query_expired", "payroll_source_unavailable", "insufficient_margin", "idempotency_key_reused"],
      "/v1/contracts": ["disbursement_date_passed", "idempotency_key_reused"],
      "/v1/risk-assessments": ["margin_query_expired", "idempotency_key_reused"],
    };
    for (const [path, codes] of Object.entries(expected)) for (const code of codes) expect(note(path), path).toContain(`\`${code}\``);
  });

  it("says the token endpoint answers a client of the other environment 401 invalid_client", () => {
    expect(doc().paths["/v1/auth/token"]!.post!.responses["401"]!.description).toMatch(/`invalid_client`.*other environment/);
  });

  it("puts Idempotent-Replayed on the stored 4xx of idempotent POSTs, never on what is not stored", () => {
    const d = doc();
    const headers = (path: string, status: string) => Object.keys(d.paths[path]!.post!.responses[status]!.headers ?? {});
    for (const status of ["201", "403", "409", "422"]) expect(headers("/v1/customers", status), status).toContain("Idempotent-Replayed");
    expect(headers("/v1/contracts", "404")).toContain("Idempotent-Replayed");
    for (const status of ["400", "401", "413", "415", "429", "500"]) expect(headers("/v1/customers", status), status).not.toContain("Idempotent-Replayed");
    // The batch stores no answer of the wrapper's: only its finished batch is replayed.
    for (const status of ["409", "422"]) expect(headers("/v1/settlements/batch", status), status).not.toContain("Idempotent-Replayed");
  });

  it("documents the batch's 413 with the X-RateLimit-* headers (batch_too_large comes from its handler), and its keys per credential", () => {
    const batch = doc().paths["/v1/settlements/batch"]!.post!;
    expect(Object.keys(batch.responses["413"]!.headers ?? {})).toEqual(expect.arrayContaining(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id"]));
    const requestId = batch.parameters.find((p) => p.name === "X-Request-Id") as unknown as { description: string };
    expect(requestId.description).toContain("per credential (and its permissions)");
    expect(requestId.description).not.toContain("whichever of its credentials");
  });

  it("challenges a provider notification's 401 with the signature scheme", () => {
    const headers = doc().paths["/v1/charges/notifications/{provider}"]!.post!.responses["401"]!.headers as Record<string, { description: string }>;
    expect(headers["WWW-Authenticate"]!.description).toContain("X-Provider-Signature");
  });

  it("answers the deprecated tax_rate beside monthly_rate in simulations, marked deprecated", () => {
    const schemas = doc().components.schemas as unknown as Record<string, { properties: Record<string, Schema>; required: string[] }>;
    for (const name of ["Simulation", "SimulationSummary"]) {
      expect(schemas[name]!.properties.tax_rate, name).toMatchObject({ type: "string", deprecated: true });
      expect(schemas[name]!.required, name).toContain("tax_rate");
    }
  });
});
