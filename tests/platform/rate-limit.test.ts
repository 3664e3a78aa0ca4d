import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET } from "@/app/v1/health/route";
import { RateLimits, setRateLimitsForTests } from "@/lib/api/rate-limit";
import { stopListener } from "@/lib/db/notifications";
import { newKey, newTenant } from "../helpers/factory";
import { limiterStores } from "../helpers/limiter-stores";
import { bearer, call, PRODUCTION } from "../helpers/http";

// The same cases against the in-memory store and, when REDIS_URL is set, against Redis.
const stores = limiterStores();

afterAll(() => stopListener());

describe.each(stores)("rate limits (%s store)", (_name, makeStore) => {
  let close: () => Promise<void> = async () => undefined;
  beforeEach(async () => {
    const made = await makeStore();
    close = made.close;
    setRateLimitsForTests(new RateLimits(made.store, { sandbox: 100, production: 1000 }, `rl-test-${randomBytes(4).toString("hex")}`));
  });
  afterEach(async () => {
    setRateLimitsForTests(undefined);
    await close();
  });

  it("lets exactly 100 of 300 parallel sandbox requests through; the rest get 429 with Retry-After", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id);
    const { tenant: other } = await newTenant();
    const { key: otherKey } = await newKey(other.id);
    await call(GET, { path: "/v1/health", headers: bearer(key, tenant.id) }); // warm the credential cache
    const results = await Promise.all(
      Array.from({ length: 299 }, () => call(GET, { path: "/v1/health", headers: bearer(key, tenant.id) })),
    );
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok.length).toBe(99);
    expect(limited.length).toBe(200);
    const remaining = ok.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 99 }, (_, i) => i));
    const sample = limited[0]!;
    expect(sample.body).toMatchObject({ code: "rate_limited", status: 429, detail: expect.stringContaining("100 requests per minute") });
    expect(Number(sample.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(sample.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(sample.headers.get("x-ratelimit-limit")).toBe("100");
    expect(sample.headers.get("x-ratelimit-remaining")).toBe("0");

    // Another tenant's quota is untouched by the burst.
    const theirs = await call(GET, { path: "/v1/health", headers: bearer(otherKey, other.id) });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("x-ratelimit-remaining")).toBe("99");
  });

  it("keeps sandbox and production quotas apart: 1,000 per minute in production", async () => {
    const { tenant } = await newTenant();
    const { key: live } = await newKey(tenant.id, "production");
    const { key: test } = await newKey(tenant.id, "sandbox");
    const results = await Promise.all(
      Array.from({ length: 1050 }, () => call(GET, { base: PRODUCTION, path: "/v1/health", headers: bearer(live, tenant.id) })),
    );
    expect(results.filter((r) => r.status === 200).length).toBe(1000);
    expect(results.filter((r) => r.status === 429).length).toBe(50);
    const sandbox = await call(GET, { path: "/v1/health", headers: bearer(test, tenant.id) });
    expect(sandbox.status).toBe(200);
    expect(sandbox.headers.get("x-ratelimit-remaining")).toBe("99");
  });
});
