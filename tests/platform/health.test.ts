import { afterAll, describe, expect, it } from "vitest";
import { GET } from "@/app/v1/health/route";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { db } from "@/lib/db/client";
import { actor, newKey, newTenant } from "../helpers/factory";
import { bearer, call, PRODUCTION, SANDBOX } from "../helpers/http";
import { stopListener } from "@/lib/db/notifications";

afterAll(() => stopListener());

const problem = (code: string, status: number, title: string, detail: string, requestId = expect.any(String)) => ({
  type: `urn:credit-platform:problem:${code}`,
  title,
  status,
  detail,
  code,
  request_id: requestId,
});

describe("GET /v1/health", () => {
  it("answers the environment of the base address, the version and the tenant", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id, "sandbox", ["read"]);
    const res = await call(GET, { path: "/v1/health", headers: { ...bearer(key, tenant.id), "x-request-id": "3b241101-e2bb-4255-8caf-4136c566a962" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", environment: "sandbox", version: "1.4.0", tenant: tenant.id });
    expect(res.headers.get("x-request-id")).toBe("3b241101-e2bb-4255-8caf-4136c566a962");
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("99");
    expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
    expect(res.headers.get("cache-control")).toBe("no-store");

    const { key: live } = await newKey(tenant.id, "production", ["read"]);
    const prod = await call(GET, { base: PRODUCTION, path: "/v1/health", headers: bearer(live, tenant.id) });
    expect(prod.status).toBe(200);
    expect(prod.body).toEqual({ status: "ok", environment: "production", version: "1.4.0", tenant: tenant.id });
    expect(prod.headers.get("x-ratelimit-limit")).toBe("1000");
  });

  it("refuses a missing, malformed or unknown credential with 401", async () => {
    const { tenant } = await newTenant();
    const none = await call(GET, { path: "/v1/health", headers: { "x-tenant-id": tenant.id } });
    expect(none.status).toBe(401);
    expect(none.headers.get("content-type")).toBe("application/problem+json");
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="credit-platform"');
    expect(none.body).toEqual(problem("authentication_required", 401, "Authentication is required", "Send Authorization: Bearer <API key or access token>"));

    const bad = await call(GET, { path: "/v1/health", headers: bearer("sk_test_not-a-real-key", tenant.id) });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(bad.body).toEqual(problem("invalid_api_key", 401, "The API key is invalid or revoked", "The API key is invalid or revoked"));

    const basic = await call(GET, { path: "/v1/health", headers: { authorization: "Basic abc", "x-tenant-id": tenant.id } });
    expect(basic.body).toEqual(problem("invalid_token", 401, "The access token is invalid, expired or revoked", "The Authorization header must be: Bearer <token>"));
  });

  it("stops accepting a key on the request right after it is revoked, and audits both events", async () => {
    const { tenant } = await newTenant();
    const { apiKey, key } = await newKey(tenant.id);
    expect((await call(GET, { path: "/v1/health", headers: bearer(key, tenant.id) })).status).toBe(200);
    await revokeApiKey(tenant.id, apiKey.id, actor);
    const after = await call(GET, { path: "/v1/health", headers: bearer(key, tenant.id) });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("invalid_api_key");
    const audit = await db().auditLog.findMany({ where: { tenantId: tenant.id, targetId: apiKey.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => [a.action, a.actorType, a.actorLabel, a.environment])).toEqual([
      ["api_key.created", "cli", "test", "sandbox"],
      ["api_key.revoked", "cli", "test", "sandbox"],
    ]);
  });

  it("requires X-Tenant-Id naming the credential's tenant (403)", async () => {
    const { tenant } = await newTenant();
    const { tenant: other } = await newTenant();
    const { key } = await newKey(tenant.id);
    const missing = await call(GET, { path: "/v1/health", headers: { authorization: `Bearer ${key}` } });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual(problem("tenant_header_required", 403, "The X-Tenant-Id header is required", "Send X-Tenant-Id with your tenant's id"));
    const mismatch = await call(GET, { path: "/v1/health", headers: bearer(key, other.id) });
    expect(mismatch.status).toBe(403);
    expect(mismatch.body).toEqual(problem("tenant_mismatch", 403, "The credential does not belong to this tenant", "X-Tenant-Id does not match the credential's tenant"));
  });

  it("refuses a sandbox key on the production address and the reverse (401)", async () => {
    const { tenant } = await newTenant();
    const { key: test } = await newKey(tenant.id, "sandbox");
    const { key: live } = await newKey(tenant.id, "production");
    const a = await call(GET, { base: PRODUCTION, path: "/v1/health", headers: bearer(test, tenant.id) });
    expect(a.status).toBe(401);
    expect(a.body).toEqual(problem("environment_mismatch", 401, "The credential belongs to another environment", "This sandbox credential cannot be used on the production base address"));
    const b = await call(GET, { base: SANDBOX, path: "/v1/health", headers: bearer(live, tenant.id) });
    expect(b.status).toBe(401);
    expect(b.body.code).toBe("environment_mismatch");
  });

  it("answers 421 on a host that is neither base address, and 400 for an invalid X-Request-Id", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id);
    const res = await call(GET, { base: "http://evil.example", path: "/v1/health", headers: bearer(key, tenant.id) });
    expect(res.status).toBe(421);
    expect(res.body.code).toBe("misdirected_request");
    const bad = await call(GET, { path: "/v1/health", headers: { ...bearer(key, tenant.id), "x-request-id": "has spaces" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_request_id");
    // Still an answer with a request id (the server's own), and the header named as the field in error.
    expect(bad.headers.get("x-request-id")).toMatch(/^req_[0-9A-Z]{26}$/);
    expect(bad.body.request_id).toBe(bad.headers.get("x-request-id"));
    expect(bad.body.errors).toEqual([{ param: "X-Request-Id", in: "header", message: "X-Request-Id must be 1–255 characters of A–Z, a–z, 0–9, . _ : - (a UUID is recommended)" }]);
  });
});
