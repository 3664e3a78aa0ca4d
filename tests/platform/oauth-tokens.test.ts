import { SignJWT, UnsecuredJWT } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/v1/health/route";
import { POST as token } from "@/app/v1/auth/token/route";
import { revokeOAuthClient } from "@/lib/auth/oauth-clients";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { getEnv } from "@/lib/env";
import { actor, newClient, newTenant } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";

afterAll(() => stopListener());

const tokenRequest = (form: Record<string, string>, headers: Record<string, string> = {}, base?: string) =>
  call(token, { base, path: "/v1/auth/token", form, headers });

async function setup(scopes: ("read" | "write" | "customers:read")[] = ["read", "write"]) {
  const { tenant } = await newTenant();
  const { client, clientSecret } = await newClient(tenant.id, "sandbox", scopes);
  const grant = (extra: Record<string, string> = {}) =>
    tokenRequest({ grant_type: "client_credentials", client_id: client.client_id, client_secret: clientSecret, ...extra });
  return { tenant, client, clientSecret, grant };
}

describe("POST /v1/auth/token", () => {
  it("issues a 3600 s bearer JWT and a refresh token for client credentials; the token works like a key", async () => {
    const { tenant, grant } = await setup();
    const res = await grant({ scope: "read write" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      token_type: "Bearer",
      expires_in: 3600,
      scope: "read write",
      refresh_token: expect.stringMatching(/^rt_/),
      refresh_token_expires_in: 2592000,
    });
    const header = JSON.parse(Buffer.from(res.body.access_token.split(".")[0], "base64url").toString());
    expect(header).toEqual({ alg: "HS256", typ: "at+jwt" });
    const ok = await call(health, { path: "/v1/health", headers: bearer(res.body.access_token, tenant.id) });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: "ok", environment: "sandbox", version: "1.4.0", tenant: tenant.id });
  });

  it("accepts HTTP Basic client authentication and defaults to all of the client's scopes", async () => {
    const { client, clientSecret } = await setup(["customers:read"]);
    const basic = Buffer.from(`${client.client_id}:${clientSecret}`).toString("base64");
    const res = await tokenRequest({ grant_type: "client_credentials" }, { authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe("customers:read");
  });

  it("answers invalid_client (401 + WWW-Authenticate) for a wrong secret, unknown or revoked client", async () => {
    const { tenant, client, grant } = await setup();
    const wrong = await tokenRequest({ grant_type: "client_credentials", client_id: client.client_id, client_secret: "cs_test_wrong" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Basic realm="credit-platform", charset="UTF-8"');
    expect(wrong.body).toEqual({
      type: "urn:credit-platform:problem:invalid_client",
      title: "Client authentication failed",
      status: 401,
      detail: "Unknown client, wrong secret or revoked client",
      code: "invalid_client",
      request_id: expect.any(String),
      error: "invalid_client",
      error_description: "Unknown client, wrong secret or revoked client",
    });
    const issued = await grant();
    await revokeOAuthClient(tenant.id, client.id, actor);
    expect((await grant()).body.error).toBe("invalid_client");
    // Its access tokens stop working on the next request too.
    const after = await call(health, { path: "/v1/health", headers: bearer(issued.body.access_token, tenant.id) });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("invalid_token");
  });

  it("answers unsupported_grant_type, invalid_scope and invalid_request (400) and changes nothing", async () => {
    const { client, clientSecret, grant } = await setup(["read"]);
    const before = await db().refreshToken.count({ where: { oauthClient: { clientId: client.client_id } } });
    const unsupported = await tokenRequest({ grant_type: "password", client_id: client.client_id, client_secret: clientSecret });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body).toMatchObject({ code: "unsupported_grant_type", error: "unsupported_grant_type", error_description: 'grant_type "password" is not supported' });
    const scope = await grant({ scope: "read write" });
    expect(scope.status).toBe(400);
    expect(scope.body).toMatchObject({ code: "invalid_scope", error: "invalid_scope", error_description: "Scope not allowed for this client: write" });
    const missing = await tokenRequest({ client_id: client.client_id, client_secret: clientSecret });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "invalid_request", error: "invalid_request", errors: [{ param: "grant_type", in: "body", message: expect.any(String) }] });
    const json = await call(token, { path: "/v1/auth/token", json: { grant_type: "client_credentials" } });
    expect(json.status).toBe(415);
    // Only RFC 6749 §5.2's codes in `error` (what OAuth2 libraries read); the precise one stays in `code`.
    expect(json.body).toMatchObject({ code: "unsupported_media_type", error: "invalid_request", error_description: "Send Content-Type: application/x-www-form-urlencoded" });
    const otherTenant = await tokenRequest({ grant_type: "client_credentials", client_id: client.client_id, client_secret: clientSecret }, { "x-tenant-id": "ten_01JD0000000000000000000000" });
    expect([otherTenant.status, otherTenant.body.code, otherTenant.body.error]).toEqual([403, "tenant_mismatch", "invalid_request"]);
    expect(await db().refreshToken.count({ where: { oauthClient: { clientId: client.client_id } } })).toBe(before);
  });

  it("refuses a sandbox client on the production address", async () => {
    const { client, clientSecret } = await setup();
    const res = await tokenRequest({ grant_type: "client_credentials", client_id: client.client_id, client_secret: clientSecret }, {}, PRODUCTION);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_client");
  });

  it("rotates refresh tokens, and reuse of a spent one revokes the whole chain and its access tokens", async () => {
    const { tenant, client, clientSecret, grant } = await setup();
    const first = (await grant()).body;
    const refresh = (rt: string, extra: Record<string, string> = {}) =>
      tokenRequest({ grant_type: "refresh_token", refresh_token: rt, client_id: client.client_id, client_secret: clientSecret, ...extra });

    const second = await refresh(first.refresh_token, { scope: "read" });
    expect(second.status).toBe(200);
    expect(second.body.scope).toBe("read");
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    // Narrowing on refresh narrows that access token only: the new refresh token keeps the grant's scope (RFC 6749 §6),
    // so the next refresh may ask for all of it again — never for more than the grant.
    const widened = await refresh(second.body.refresh_token, { scope: "read write" });
    expect([widened.status, widened.body.scope]).toEqual([200, "read write"]);
    const beyond = await refresh(widened.body.refresh_token, { scope: "read write collections:admin" });
    expect(beyond.body.code).toBe("invalid_scope");
    const third = await refresh(widened.body.refresh_token);
    expect(third.body.scope).toBe("read write");
    expect(third.status).toBe(200);
    expect((await call(health, { path: "/v1/health", headers: bearer(third.body.access_token, tenant.id) })).status).toBe(200);

    const reuse = await refresh(first.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body).toMatchObject({ code: "invalid_grant", error_description: "The refresh token was already used; every token of its grant is now revoked" });
    expect((await refresh(third.body.refresh_token)).body.code).toBe("invalid_grant");
    const revoked = await call(health, { path: "/v1/health", headers: bearer(third.body.access_token, tenant.id) });
    expect(revoked.status).toBe(401);
    // Another grant of the same client is unaffected.
    expect((await grant()).status).toBe(200);
  });

  it("a refresh that fails after spending its token (the database refuses the successor) leaves it unspent: the retry works", async () => {
    const { tenant, client, clientSecret, grant } = await setup();
    const first = (await grant()).body;
    const family = JSON.parse(Buffer.from(first.access_token.split(".")[1]!, "base64url").toString()).fid as string;
    const refresh = () => tokenRequest({ grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: client.client_id, client_secret: clientSecret });
    // A fault in the database for this grant's next refresh token only (its insert fails after the spend).
    const fn = `fail_refresh_${family.replace(/-/g, "_")}`;
    await db().$executeRawUnsafe(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER ${fn} BEFORE INSERT ON refresh_tokens FOR EACH ROW WHEN (NEW.family_id = '${family}') EXECUTE FUNCTION ${fn}()`);
    try {
      expect((await refresh()).status).toBeGreaterThanOrEqual(500);
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER ${fn} ON refresh_tokens`);
      await db().$executeRawUnsafe(`DROP FUNCTION ${fn}()`);
    }
    expect(await db().refreshToken.findFirstOrThrow({ where: { familyId: family } })).toMatchObject({ usedAt: null, revokedAt: null });
    const retried = await refresh();
    expect(retried.status).toBe(200);
    expect((await call(health, { path: "/v1/health", headers: bearer(retried.body.access_token, tenant.id) })).status).toBe(200);
  });

  it("rejects tampered, expired, unsigned and wrong-audience access tokens (401)", async () => {
    const { tenant, client, grant } = await setup();
    const good = (await grant()).body.access_token as string;
    const [h, p, s] = good.split(".");
    const payload = JSON.parse(Buffer.from(p!, "base64url").toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, scope: "read write webhooks:write" })).toString("base64url")}.${s}`;
    const secret = new TextEncoder().encode(getEnv().AUTH_JWT_SECRET);
    const env = getEnv();
    const sign = (claims: Record<string, unknown>, exp: number, aud = env.AUTH_JWT_AUDIENCE) =>
      new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "at+jwt" }).setIssuer(env.AUTH_JWT_ISSUER).setAudience(aud)
        .setSubject(client.client_id).setIssuedAt(exp - 3600).setExpirationTime(exp).setJti("j1").sign(secret);
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign(payload, now - 10);
    const wrongAudience = await sign(payload, now + 600, "urn:someone-else");
    const unsigned = new UnsecuredJWT(payload).setIssuer(env.AUTH_JWT_ISSUER).setAudience(env.AUTH_JWT_AUDIENCE).setSubject(client.client_id).setExpirationTime(now + 600).setIssuedAt().encode();
    const hs512 = await new SignJWT(payload).setProtectedHeader({ alg: "HS512", typ: "at+jwt" }).setIssuer(env.AUTH_JWT_ISSUER).setAudience(env.AUTH_JWT_AUDIENCE).setSubject(client.client_id).setIssuedAt().setExpirationTime(now + 600).setJti("j2").sign(secret);
    for (const bad of [tampered, expired, wrongAudience, unsigned, hs512]) {
      const res = await call(health, { path: "/v1/health", headers: bearer(bad, tenant.id) });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("invalid_token");
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="credit-platform", error="invalid_token"');
    }
  });

  it("honours a validly signed token only while its grant exists: unknown or another client's grant → 401", async () => {
    const { tenant, client, grant } = await setup();
    const other = await setup();
    const good = (await grant()).body.access_token as string;
    const payload = JSON.parse(Buffer.from(good.split(".")[1]!, "base64url").toString());
    const env = getEnv();
    const secret = new TextEncoder().encode(env.AUTH_JWT_SECRET);
    const now = Math.floor(Date.now() / 1000);
    const forge = (fid: string) =>
      new SignJWT({ ...payload, fid }).setProtectedHeader({ alg: "HS256", typ: "at+jwt" }).setIssuer(env.AUTH_JWT_ISSUER)
        .setAudience(env.AUTH_JWT_AUDIENCE).setSubject(client.client_id).setIssuedAt(now).setExpirationTime(now + 600).setJti("forged").sign(secret);
    const otherToken = (await other.grant()).body.access_token as string;
    const otherFamily = JSON.parse(Buffer.from(otherToken.split(".")[1]!, "base64url").toString()).fid as string;
    for (const fid of ["fam_never_issued", otherFamily]) {
      const res = await call(health, { path: "/v1/health", headers: bearer(await forge(fid), tenant.id) });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("invalid_token");
    }
    // The genuine tokens still work: the forged one naming the other client's grant did not poison its cache entry.
    expect((await call(health, { path: "/v1/health", headers: bearer(good, tenant.id) })).status).toBe(200);
    expect((await call(health, { path: "/v1/health", headers: bearer(otherToken, other.tenant.id) })).status).toBe(200);
  });
});
