import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "./errors";
import { readBody, readRequestId, validate } from "./request-input";

const req = (headers: Record<string, string>, body?: string) => new Request("http://localhost:3000/v1/x", { method: "POST", headers, body });

describe("request input", () => {
  it("reads X-Request-Id or Idempotency-Key, and refuses two different ones", () => {
    expect(readRequestId(req({ "x-request-id": "abc-1" }))).toEqual({ requestId: "abc-1", idempotencyKey: "abc-1" });
    expect(readRequestId(req({ "idempotency-key": "k1" }))).toEqual({ requestId: "k1", idempotencyKey: "k1" });
    expect(readRequestId(req({})).requestId).toMatch(/^req_/);
    expect(() => readRequestId(req({ "x-request-id": "a", "idempotency-key": "b" }))).toThrow(ApiError);
    expect(() => readRequestId(req({ "x-request-id": "x".repeat(256) }))).toThrow(ApiError);
  });

  it("checks media type and JSON syntax", async () => {
    await expect(readBody(req({ "content-type": "text/plain" }, "{}"), "json")).rejects.toMatchObject({ code: "unsupported_media_type", status: 415 });
    await expect(readBody(req({ "content-type": "application/json" }, "{bad"), "json")).rejects.toMatchObject({ code: "invalid_json", status: 400 });
    await expect(readBody(req({ "content-type": "application/json; charset=utf-8" }, '{"a":1}'), "json")).resolves.toEqual({ a: 1 });
    await expect(readBody(req({ "content-type": "application/x-www-form-urlencoded" }, "a=1&b=x%20y"), "form")).resolves.toEqual({ a: "1", b: "x y" });
  });

  it("turns zod issues into field errors, one per unknown field", () => {
    const schema = z.strictObject({ a: z.object({ b: z.number() }) });
    try {
      validate(schema, { a: { b: "x" }, c: 1 }, "body");
      expect.unreachable();
    } catch (err) {
      expect((err as ApiError).errors).toEqual([
        { param: "a.b", in: "body", message: "Invalid input: expected number, received string" },
        { param: "c", in: "body", message: "Unknown field" },
      ]);
    }
  });
});
