import { describe, expect, it } from "vitest";
import { OPERATIONS } from "@/lib/api/operations";
import { ROUTE_TABLE } from "@/lib/api/route-table";
import { gateV1 } from "@/lib/api/v1-gate";
import { problem } from "../helpers/problem";

// The /v1 gate's table of paths and methods is the operations' (inventory: nothing undocumented answers), and
// what the gate answers for methods, unknown paths and malformed URLs.

describe("the /v1 gate's route table", () => {
  it("lists exactly the documented operations", () => {
    const documented: Record<string, string[]> = {};
    for (const op of OPERATIONS) (documented[op.path] ??= []).push(op.method);
    for (const methods of Object.values(documented)) methods.sort();
    expect(Object.fromEntries(Object.entries(ROUTE_TABLE).map(([path, methods]) => [path, [...methods].sort()]))).toEqual(documented);
  });
});

// undici's Request refuses TRACE and CONNECT (forbidden methods); the gate gets Node's request as-is.
const request = (method: string, path: string, headers: Record<string, string> = {}) =>
  ({ method, url: `http://localhost:3000${path}`, headers: new Headers(headers) }) as unknown as Request;

const gate = async (method: string, path: string) => {
  const response = gateV1(request(method, path));
  if (!response) return null;
  const text = await response.text();
  return { status: response.status, allow: response.headers.get("allow"), type: response.headers.get("content-type"), body: text ? JSON.parse(text) : null };
};

describe("the /v1 gate", () => {
  it("lets the path's own methods through", async () => {
    for (const [method, path] of [["GET", "/v1/health"], ["HEAD", "/v1/health"], ["POST", "/v1/customers"], ["PATCH", "/v1/customers/cus_x"]]) {
      expect(await gate(method!, path!)).toBeNull();
    }
  });

  it("answers 405 problem+json with Allow for any other method, TRACE included", async () => {
    for (const method of ["TRACE", "PROPFIND", "PUT", "DELETE", "POST"]) {
      expect(await gate(method, "/v1/health")).toEqual({
        status: 405,
        allow: "GET, HEAD, OPTIONS",
        type: "application/problem+json",
        body: problem("method_not_allowed", 405, "The method is not allowed on this resource", `${method} is not allowed here; allowed: GET, HEAD, OPTIONS`),
      });
    }
    expect((await gate("PUT", "/v1/customers/cus_1"))!.allow).toBe("GET, PATCH, DELETE, HEAD, OPTIONS");
  });

  it("answers OPTIONS with Allow, the request id and no CORS headers", async () => {
    const response = gateV1(request("OPTIONS", "/v1/customers", { origin: "https://app.example", "x-request-id": "trace-options-1" }))!;
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    expect(response.headers.get("x-request-id")).toBe("trace-options-1");
    expect([...response.headers.keys()].filter((h) => h.startsWith("access-control"))).toEqual([]);
    // None sent, or one that is not a valid id: one is generated.
    for (const headers of [{}, { "x-request-id": "not valid!" }] as Record<string, string>[]) {
      expect(gateV1(request("OPTIONS", "/v1/customers", headers))!.headers.get("x-request-id")).toMatch(/^req_[0-9A-Z]{26}$/);
    }
  });

  it("answers 404 for unknown paths (bare /v1 too) and 400 for malformed percent-encoding", async () => {
    for (const path of ["/v1", "/v1/nope", "/v1/customers/a/b"]) {
      expect(await gate("GET", path)).toMatchObject({ status: 404, type: "application/problem+json", body: { code: "not_found" } });
    }
    expect(await gate("GET", "/v1/customers/%zz")).toMatchObject({
      status: 400,
      type: "application/problem+json",
      body: problem("invalid_url", 400, "The URL is malformed", "The URL's percent-encoding is malformed"),
    });
  });
});
