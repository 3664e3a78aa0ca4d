import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

const BASE = { DATABASE_URL: "postgresql://app@db.internal/credit", AUTH_JWT_SECRET: "a".repeat(32) };

// The request's host[:port] picks the environment (lib/api/environment.ts): the two base addresses must differ in it.
describe("configuration: sandbox and production base addresses", () => {
  it("refuses the same host[:port] for both, whatever the scheme, path or letter case", () => {
    const message =
      "Invalid configuration:\n  PRODUCTION_BASE_URL: Must use another host[:port] than SANDBOX_BASE_URL: the request's host picks the environment";
    expect(() => parseEnv({ ...BASE, SANDBOX_BASE_URL: "https://api.example.com/sandbox", PRODUCTION_BASE_URL: "https://API.example.com/v1" })).toThrow(message);
    expect(() => parseEnv({ ...BASE, SANDBOX_BASE_URL: "http://localhost:3000", PRODUCTION_BASE_URL: "https://localhost:3000" })).toThrow(message);
    expect(() => parseEnv({ ...BASE, PRODUCTION_BASE_URL: "http://localhost:3000" })).toThrow(message); // the sandbox default
  });

  it("accepts different hosts, or the same host name on different ports", () => {
    expect(parseEnv(BASE)).toMatchObject({ SANDBOX_BASE_URL: "http://localhost:3000", PRODUCTION_BASE_URL: "http://127.0.0.1:3000" });
    const hosts = { SANDBOX_BASE_URL: "https://sandbox.api.example.com", PRODUCTION_BASE_URL: "https://api.example.com" };
    expect(parseEnv({ ...BASE, ...hosts })).toMatchObject(hosts);
    const ports = { SANDBOX_BASE_URL: "http://localhost:3001", PRODUCTION_BASE_URL: "http://localhost:3000" };
    expect(parseEnv({ ...BASE, ...ports })).toMatchObject(ports);
  });
});
