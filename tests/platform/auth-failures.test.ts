import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as token } from "@/app/v1/auth/token/route";
import { GET as health } from "@/app/v1/health/route";
import { AuthFailures, setAuthFailuresForTests } from "@/lib/api/auth-failures";
import type { RateLimitStore } from "@/lib/api/rate-limit";
import { signAccessToken } from "@/lib/auth/access-tokens";
import { startListener, stopListener } from "@/lib/db/notifications";
import { CLIENT_ADDRESS_HEADER } from "@/lib/http/client-address";
import { newClient, newKey, newTenant } from "../helpers/factory";
import { limiterStores } from "../helpers/limiter-stores";
import { bearer, call } from "../helpers/http";
import { problem } from "../helpers/problem";

// Failed authentication is counted per client address (lib/api/auth-failures.ts): after ALLOWED unknown or revoked API
// keys or client secrets within a minute, the address's requests that need a credential lookup are refused with 429
// before it; credentials this process already found valid still pass, access tokens are neither counted nor refused,
// and other addresses and requests without a credential are untouched. The same cases against memory and, with
// REDIS_URL, Redis.

const ALLOWED = 3;
const stores = limiterStores();

// The credential cache is used only while the invalidation listener is up.
beforeAll(() => startListener());
afterAll(() => stopListener());

const from = (address: string, headers: Record<string, string> = {}) => ({ ...headers, [CLIENT_ADDRESS_HEADER]: address });
const unknownKey = () => `sk_test_${randomBytes(24).toString("base64url")}`;
const refused = () =>
  problem(
    "too_many_failed_authentications",
    429,
    "Too many failed authentications from this address",
    expect.stringMatching(/^Too many requests with an unknown or revoked credential from this address; retry after \d+ s with a valid one$/),
  );

describe.each(stores)("failed authentication per address (%s store)", (_name, makeStore) => {
  let store: RateLimitStore;
  let close: () => Promise<void> = async () => undefined;
  let prefix: string;
  beforeEach(async () => {
    const made = await makeStore();
    store = made.store;
    close = made.close;
    prefix = `auth-failures-test-${randomBytes(4).toString("hex")}`;
    setAuthFailuresForTests(new AuthFailures(store, ALLOWED, prefix));
  });
  afterEach(async () => {
    setAuthFailuresForTests(undefined);
    await close();
  });

  it("refuses an address's lookups after its failures; a key already known valid still passes; other addresses are untouched", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id);
    const { key: unseen } = await newKey(tenant.id);
    const attacker = "203.0.113.7";
    expect((await call(health, { path: "/v1/health", headers: from(attacker, bearer(key, tenant.id)) })).status).toBe(200); // now cached
    for (let i = 0; i < ALLOWED; i++) {
      const res = await call(health, { path: "/v1/health", headers: from(attacker, bearer(unknownKey(), tenant.id)) });
      expect([res.status, res.body.code]).toEqual([401, "invalid_api_key"]);
    }
    // Refused from here on: the next try is not looked up (a key of this very tenant would not be either, below).
    const over = await call(health, { path: "/v1/health", headers: from(attacker, bearer(unknownKey(), tenant.id)) });
    expect(over.status).toBe(429);
    expect(over.body).toEqual(refused());
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.headers.get("x-ratelimit-limit")).toBeNull(); // no tenant was charged

    // A key this process found valid a moment ago needs no lookup: it passes. One it has not seen would need a lookup.
    const known = await call(health, { path: "/v1/health", headers: from(attacker, bearer(key, tenant.id)) });
    expect([known.status, known.body.tenant]).toEqual([200, tenant.id]);
    const valid = await call(health, { path: "/v1/health", headers: from(attacker, bearer(unseen, tenant.id)) });
    expect([valid.status, valid.body]).toEqual([429, refused()]);
    // An IPv4-mapped IPv6 form of the same address is the same address.
    const mapped = await call(health, { path: "/v1/health", headers: from(`::ffff:${attacker}`, bearer(unseen, tenant.id)) });
    expect(mapped.status).toBe(429);

    const neighbour = await call(health, { path: "/v1/health", headers: from("203.0.113.8", bearer(unseen, tenant.id)) });
    expect([neighbour.status, neighbour.body.tenant]).toEqual([200, tenant.id]);
    // Without an address (no app server in front) nothing is counted or refused.
    for (let i = 0; i < ALLOWED + 2; i++) {
      expect((await call(health, { path: "/v1/health", headers: bearer(unknownKey(), tenant.id) })).status).toBe(401);
    }
  });

  it("counts an IPv6 address by its /64, and neither requests without a credential, valid ones nor access tokens", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id, "sandbox");
    const { client } = await newClient(tenant.id);
    const office = "2001:db8:5:7::10";
    // Signed by the platform, for a grant it never made; and the same with its signature broken.
    const ungrantedToken = () => signAccessToken({ clientId: client.client_id, scopes: ["read"], tenantId: tenant.id, environment: "sandbox", familyId: "fam_unknown" });
    for (let i = 0; i < ALLOWED + 5; i++) {
      const anonymous = await call(health, { path: "/v1/health", headers: from(office, { "x-tenant-id": tenant.id }) });
      expect([anonymous.status, anonymous.body.code]).toEqual([401, "authentication_required"]);
      // A forged token (its signature fails before any lookup) and one whose grant is unknown: refused, never counted.
      const forged = await call(health, { path: "/v1/health", headers: from(office, bearer(`${await ungrantedToken()}x`, tenant.id)) });
      expect([forged.status, forged.body.code]).toEqual([401, "invalid_token"]);
      const ungranted = await call(health, { path: "/v1/health", headers: from(office, bearer(await ungrantedToken(), tenant.id)) });
      expect([ungranted.status, ungranted.body.code]).toEqual([401, "invalid_token"]);
      expect((await call(health, { path: "/v1/health", headers: from(office, bearer(key, tenant.id)) })).status).toBe(200);
    }
    const { key: unseen } = await newKey(tenant.id);
    for (let i = 0; i < ALLOWED; i++) {
      // Hosts of one /64 share its count.
      const host = `2001:db8:5:7::${(i + 1).toString(16)}`;
      expect((await call(health, { path: "/v1/health", headers: from(host, bearer(unknownKey(), tenant.id)) })).status).toBe(401);
    }
    // The last allowed failure answered its 401; the whole /64's lookups are refused from then on.
    expect((await call(health, { path: "/v1/health", headers: from(office, bearer(unseen, tenant.id)) })).status).toBe(429);
    expect((await call(health, { path: "/v1/health", headers: from("2001:db8:5:8::10", bearer(unseen, tenant.id)) })).status).toBe(200);
  });

  it("counts wrong client secrets at the token endpoint and answers its 429 as an OAuth2 error; a known client still gets tokens", async () => {
    const { tenant } = await newTenant();
    const { client, clientSecret } = await newClient(tenant.id);
    const { client: other, clientSecret: otherSecret } = await newClient(tenant.id);
    const address = "198.51.100.20";
    const form = (id: string, secret: string) => ({ grant_type: "client_credentials", client_id: id, client_secret: secret, scope: "read" });
    expect((await call(token, { path: "/v1/auth/token", form: form(client.client_id, clientSecret), headers: from(address) })).status).toBe(200);
    for (let i = 0; i < ALLOWED; i++) {
      const res = await call(token, { path: "/v1/auth/token", form: form(`ci_test_${randomBytes(12).toString("hex")}`, clientSecret), headers: from(address) });
      expect([res.status, res.body.error]).toEqual([401, "invalid_client"]);
    }
    // The client this process knows (its secret checked without a lookup) still gets its tokens from the address.
    const known = await call(token, { path: "/v1/auth/token", form: form(client.client_id, clientSecret), headers: from(address) });
    expect([known.status, known.body.token_type]).toEqual([200, "Bearer"]);
    const wrong = await call(token, { path: "/v1/auth/token", form: form(client.client_id, `${clientSecret}x`), headers: from(address) });
    expect([wrong.status, wrong.body.code]).toEqual([429, "too_many_failed_authentications"]);
    const over = await call(token, { path: "/v1/auth/token", form: form(other.client_id, otherSecret), headers: from(address) });
    expect(over.status).toBe(429);
    expect(over.headers.get("content-type")).toBe("application/json");
    expect(over.body).toEqual({ ...refused(), error: "invalid_request", error_description: expect.stringMatching(/^Too many requests with an unknown/) });
    const elsewhere = await call(token, { path: "/v1/auth/token", form: form(other.client_id, otherSecret), headers: from("198.51.100.21") });
    // Client credentials too malformed to check are refused without counting: no secret was guessed.
    for (let i = 0; i < ALLOWED + 2; i++) {
      const missing = await call(token, { path: "/v1/auth/token", form: { grant_type: "client_credentials", client_id: other.client_id }, headers: from("198.51.100.22") });
      expect([missing.status, missing.body.error]).toEqual([401, "invalid_client"]);
    }
    const unseen = await call(token, { path: "/v1/auth/token", form: form(`ci_test_${randomBytes(12).toString("hex")}`, otherSecret), headers: from("198.51.100.22") });
    expect(unseen.status).toBe(401);
    expect([elsewhere.status, elsewhere.body.token_type]).toEqual([200, "Bearer"]);
  });

  it("another instance sharing the store refuses the address at its first failure there", async () => {
    const { tenant } = await newTenant();
    const { key } = await newKey(tenant.id);
    const { key: unseen } = await newKey(tenant.id);
    const address = "192.0.2.44";
    for (let i = 0; i < ALLOWED; i++) {
      expect((await call(health, { path: "/v1/health", headers: from(address, bearer(unknownKey(), tenant.id)) })).status).toBe(401);
    }
    // A second instance: its own memory, the same store (memory stands for one process's, so only Redis is shared).
    setAuthFailuresForTests(new AuthFailures(store, ALLOWED, prefix));
    expect((await call(health, { path: "/v1/health", headers: from(address, bearer(key, tenant.id)) })).status).toBe(200);
    const next = await call(health, { path: "/v1/health", headers: from(address, bearer(unknownKey(), tenant.id)) });
    expect(next.status).toBe(store.kind === "redis" ? 429 : 401);
    // Learned there: this instance too refuses the address's lookups from then on.
    expect((await call(health, { path: "/v1/health", headers: from(address, bearer(unseen, tenant.id)) })).status).toBe(store.kind === "redis" ? 429 : 200);
  });
});
