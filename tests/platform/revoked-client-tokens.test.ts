import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as token } from "@/app/v1/auth/token/route";
import { GET as health } from "@/app/v1/health/route";
import { cacheKeys, isCached } from "@/lib/auth/credential-cache";
import { revokeOAuthClient } from "@/lib/auth/oauth-clients";
import { onInvalidation, startListener, stopListener } from "@/lib/db/notifications";
import { actor, newClient, newTenant } from "../helpers/factory";
import { bearer, call } from "../helpers/http";
import { problem } from "../helpers/problem";

// A revoked client's access tokens are still presented until they expire (an integration's worker keeps its token),
// and an invalid_token is not counted per address (lib/api/auth-failures.ts): each cost a lookup of the client in the
// database. Revocation is permanent, so once a token whose signature verified names a revoked client, the credential
// cache remembers it and the next such request makes no query. The token endpoint, where anyone may name any client_id,
// never makes such an entry itself (its failures are counted per address).

// Every lookup the credential cache makes (a database query), by cache key: as tests/platform/credential-cache.test.ts
// counts its loads.
const loads = vi.hoisted(() => [] as string[]);
vi.mock("@/lib/auth/credential-cache", async (original) => {
  const real = await original<typeof import("@/lib/auth/credential-cache")>();
  return {
    ...real,
    cachedLookup: vi.fn(<T>(key: string, load: () => Promise<T | null>) => real.cachedLookup(key, () => (loads.push(key), load()))),
  };
});
const lookupsOf = (key: string) => loads.filter((k) => k === key).length;

// The credential cache is used only while the invalidation listener is up.
beforeAll(() => startListener());
afterAll(() => stopListener());

/** Resolves once this process has heard `key`'s invalidation (the revocation's NOTIFY), so no lookup made after it
 *  can race it. */
function heard(key: string): Promise<void> {
  return new Promise((resolve) => onInvalidation((k) => k === key && resolve()));
}

describe("access tokens of a revoked OAuth client", () => {
  it("cost one lookup: the client is then remembered as revoked, and later requests make no query", async () => {
    const { tenant } = await newTenant();
    const { client, clientSecret } = await newClient(tenant.id);
    const key = cacheKeys.oauthClient(client.client_id);
    const grant = () => call(token, { path: "/v1/auth/token", form: { grant_type: "client_credentials", client_id: client.client_id, client_secret: clientSecret } });
    const accessToken = (await grant()).body.access_token as string;
    expect((await call(health, { path: "/v1/health", headers: bearer(accessToken, tenant.id) })).status).toBe(200);

    const notified = heard(key);
    await revokeOAuthClient(tenant.id, client.id, actor);
    await notified;
    const refused = problem("invalid_token", 401, "The access token is invalid, expired or revoked", "The access token is invalid, expired or revoked");
    const before = lookupsOf(key);
    const first = await call(health, { path: "/v1/health", headers: bearer(accessToken, tenant.id) });
    expect([first.status, first.body]).toEqual([401, refused]);
    expect(lookupsOf(key)).toBe(before + 1);
    for (let i = 0; i < 3; i++) {
      const again = await call(health, { path: "/v1/health", headers: bearer(accessToken, tenant.id) });
      expect([again.status, again.body, again.headers.get("www-authenticate")]).toEqual([401, refused, 'Bearer realm="credit-platform", error="invalid_token"']);
    }
    expect(lookupsOf(key)).toBe(before + 1);

    // Remembered as revoked is not "found valid": the per-address limiter still treats its client_id as needing a
    // lookup (lib/api/authenticate.ts), and the token endpoint refuses it as before.
    expect(isCached(key)).toBe(false);
    const refusedGrant = await grant();
    expect([refusedGrant.status, refusedGrant.body.error, refusedGrant.body.detail]).toEqual([401, "invalid_client", "Unknown client, wrong secret or revoked client"]);
  });
});
