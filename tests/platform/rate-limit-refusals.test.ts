import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as createCustomer } from "@/app/v1/customers/route";
import { GET as health } from "@/app/v1/health/route";
import { RateLimits, setRateLimitsForTests } from "@/lib/api/rate-limit";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { newKey, newTenant } from "../helpers/factory";
import { bearer, call } from "../helpers/http";
import { problem } from "../helpers/problem";

afterAll(() => stopListener());

// The limit is charged as soon as the credential is known: refusals that come after authentication (another
// tenant's X-Tenant-Id, a missing permission) count and carry the X-RateLimit-* headers like any other answer.
describe("rate limits on refused requests", () => {
  beforeEach(() => setRateLimitsForTests(new RateLimits({ kind: "memory" }, { sandbox: 3, production: 1000 }, `rl-refusals-${randomBytes(4).toString("hex")}`)));
  afterEach(() => setRateLimitsForTests(undefined));

  it("403 tenant_mismatch and insufficient_permissions count against the quota and carry the headers", async () => {
    const { tenant } = await newTenant();
    const { tenant: other } = await newTenant();
    const { key } = await newKey(tenant.id, "sandbox", ["read"]);
    const limitHeaders = (res: { headers: Headers }) => [
      res.headers.get("x-ratelimit-limit"),
      res.headers.get("x-ratelimit-remaining"),
      Number(res.headers.get("x-ratelimit-reset")) > 0,
    ];

    const mismatch = await call(health, { path: "/v1/health", headers: bearer(key, other.id) });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body).toEqual(problem("tenant_mismatch", 403, "The credential does not belong to this tenant", "X-Tenant-Id does not match the credential's tenant"));
    expect(limitHeaders(mismatch)).toEqual(["3", "2", true]);

    const denied = await call(createCustomer, { path: "/v1/customers", headers: bearer(key, tenant.id), json: {} });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(problem("insufficient_permissions", 403, "The credential lacks the required permission", "This operation requires the customers:write permission"));
    expect(limitHeaders(denied)).toEqual(["3", "1", true]);

    expect(limitHeaders(await call(health, { path: "/v1/health", headers: bearer(key, tenant.id) }))).toEqual(["3", "0", true]);
    // The quota is spent: the next refused request is a 429, not another free 403.
    const limited = await call(health, { path: "/v1/health", headers: bearer(key, other.id) });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(problem("rate_limited", 429, "Too many requests", expect.stringMatching(/^Rate limit of 3 requests per minute exceeded; retry after \d+ s$/)));
    expect(limitHeaders(limited)).toEqual(["3", "0", true]);
    expect(await db().customer.count({ where: { tenantId: tenant.id } })).toBe(0);
  });

  it("a body that cannot be read counts too, and an anonymous request is refused before its body is read", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id);
    const broken = { path: "/v1/customers", rawBody: '{"name": ', headers: { ...bearer(key, tenant.id), "content-type": "application/json" } };
    const bad = await call(createCustomer, broken);
    expect(bad.body).toEqual(problem("invalid_json", 400, "The body is not valid JSON", "The body is not valid JSON"));
    expect([bad.headers.get("x-ratelimit-limit"), bad.headers.get("x-ratelimit-remaining")]).toEqual(["3", "2"]);
    const wrongType = await call(createCustomer, { ...broken, headers: { ...broken.headers, "content-type": "text/plain" } });
    expect([wrongType.status, wrongType.body.code, wrongType.headers.get("x-ratelimit-remaining")]).toEqual([415, "unsupported_media_type", "1"]);
    await call(createCustomer, broken);
    expect((await call(createCustomer, broken)).status).toBe(429); // garbage is not free

    const anonymous = await call(createCustomer, { ...broken, headers: { "x-tenant-id": tenant.id, "content-type": "application/json" } });
    expect([anonymous.status, anonymous.body.code]).toEqual([401, "authentication_required"]);
  });
});
