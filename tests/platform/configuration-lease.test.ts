import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

const BASE = { DATABASE_URL: "postgresql://app@db.internal/credit", AUTH_JWT_SECRET: "a".repeat(32) };

// An idempotent request runs in one transaction limited by IDEMPOTENCY_LEASE_SECONDS (lib/api/route.ts); a payroll
// authority call inside it (a reservation, an averbação) must be able to use every attempt, or the transaction would
// end after the authority acted — so a lease shorter than the authority's whole call is refused at start.
describe("configuration: the idempotency lease outlives a payroll authority call", () => {
  it("accepts the defaults: 3 attempts of 5 s and 5 s between them (25 s) and a second fit in 30 s", () => {
    expect(parseEnv(BASE)).toMatchObject({ IDEMPOTENCY_LEASE_SECONDS: 30, PAYROLL_AUTHORITY_TIMEOUT_MS: 5000, PAYROLL_AUTHORITY_MAX_RETRIES: 2 });
  });

  it("refuses a lease shorter than the authority's budget, naming the least that works", () => {
    expect(() => parseEnv({ ...BASE, PAYROLL_AUTHORITY_TIMEOUT_MS: "10000" })).toThrow(
      "Invalid configuration:\n  IDEMPOTENCY_LEASE_SECONDS: Must be at least 41 with these PAYROLL_AUTHORITY_TIMEOUT_MS and PAYROLL_AUTHORITY_MAX_RETRIES: a request's transaction must outlive its payroll authority call",
    );
    expect(parseEnv({ ...BASE, PAYROLL_AUTHORITY_TIMEOUT_MS: "10000", IDEMPOTENCY_LEASE_SECONDS: "41" })).toMatchObject({ IDEMPOTENCY_LEASE_SECONDS: 41 });
    expect(parseEnv({ ...BASE, IDEMPOTENCY_LEASE_SECONDS: "2", PAYROLL_AUTHORITY_TIMEOUT_MS: "1000", PAYROLL_AUTHORITY_MAX_RETRIES: "0" })).toMatchObject({ IDEMPOTENCY_LEASE_SECONDS: 2 });
  });
});
