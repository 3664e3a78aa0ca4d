import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as token } from "@/app/v1/auth/token/route";
import { GET as health } from "@/app/v1/health/route";
import { stopListener } from "@/lib/db/notifications";
import { newClient, newTenant } from "../helpers/factory";
import { SANDBOX } from "../helpers/http";
import { serveHandlers } from "../helpers/serve-handlers";

// The token endpoint as an integrator's OAuth2 library sees it: oauth4webapi (the library under openid-client)
// over real HTTP, with client_secret_basic and client_secret_post, refresh-token rotation, and every error
// code surfacing as the library's ResponseBodyError with RFC 6749 `error` — which needs `application/json`.

let server: { url: string; close: () => Promise<void> };
beforeAll(async () => {
  server = await serveHandlers({ "/v1/auth/token": { POST: token }, "/v1/health": { GET: health } }, SANDBOX);
});
afterAll(async () => {
  await server.close();
  await stopListener();
});

const insecure = { [oauth.allowInsecureRequests]: true }; // loopback http in the test only

async function setup(scopes: ("read" | "write")[] = ["read", "write"]) {
  const { tenant } = await newTenant();
  const { client, clientSecret } = await newClient(tenant.id, "sandbox", scopes);
  const as: oauth.AuthorizationServer = { issuer: "urn:credit-platform", token_endpoint: `${server.url}/v1/auth/token` };
  return { tenantId: tenant.id, as, client: { client_id: client.client_id } as oauth.Client, secret: clientSecret };
}

async function errorOf(promise: Promise<unknown>): Promise<{ error: string; status: number; description: unknown; contentType?: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof oauth.ResponseBodyError) return { error: err.error, status: err.status, description: err.error_description };
    if (err instanceof oauth.WWWAuthenticateChallengeError) {
      const body = (await err.response.json()) as { error: string; error_description: string };
      return { error: body.error, status: err.status, description: body.error_description, contentType: err.response.headers.get("content-type") ?? undefined };
    }
    throw err;
  }
  throw new Error("expected the library to throw");
}

describe("the token endpoint through oauth4webapi", () => {
  it("client_secret_basic: issues a token the API accepts", async () => {
    const { tenantId, as, client, secret } = await setup();
    const response = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(secret), { scope: "read" }, insecure);
    const result = await oauth.processClientCredentialsResponse(as, client, response);
    expect(result).toMatchObject({ token_type: "bearer", expires_in: 3600, scope: "read" });
    const check = await fetch(`${server.url}/v1/health`, { headers: { authorization: `Bearer ${result.access_token}`, "x-tenant-id": tenantId } });
    expect(await check.json()).toEqual({ status: "ok", environment: "sandbox", version: "1.4.0", tenant: tenantId });
  });

  it("client_secret_post and refresh rotation: each refresh token works once", async () => {
    const { as, client, secret } = await setup();
    const auth = oauth.ClientSecretPost(secret);
    const first = await oauth.processClientCredentialsResponse(as, client, await oauth.clientCredentialsGrantRequest(as, client, auth, {}, insecure));
    expect(first.refresh_token).toMatch(/^rt_/);
    const second = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, first.refresh_token!, insecure));
    expect(second.refresh_token).toMatch(/^rt_/);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    const reuse = await errorOf(oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, first.refresh_token!, insecure)));
    expect(reuse).toEqual({ error: "invalid_grant", status: 400, description: "The refresh token was already used; every token of its grant is now revoked" });
  });

  it("surfaces invalid_scope, unsupported_grant_type, invalid_request and invalid_client", async () => {
    const { as, client, secret } = await setup(["read"]);
    const auth = oauth.ClientSecretBasic(secret);
    expect(await errorOf(oauth.processClientCredentialsResponse(as, client, await oauth.clientCredentialsGrantRequest(as, client, auth, { scope: "write" }, insecure)))).toEqual({
      error: "invalid_scope",
      status: 400,
      description: "Scope not allowed for this client: write",
    });
    expect(await errorOf(oauth.processGenericTokenEndpointResponse(as, client, await oauth.genericTokenEndpointRequest(as, client, auth, "password", {}, insecure)))).toEqual({
      error: "unsupported_grant_type",
      status: 400,
      description: 'grant_type "password" is not supported',
    });
    expect(await errorOf(oauth.processGenericTokenEndpointResponse(as, client, await oauth.genericTokenEndpointRequest(as, client, auth, "refresh_token", {}, insecure)))).toEqual({
      error: "invalid_request",
      status: 400,
      description: "refresh_token is required",
    });
    const wrong = await errorOf(
      oauth.processClientCredentialsResponse(as, client, await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic("cs_test_wrong"), {}, insecure)),
    );
    expect(wrong).toMatchObject({ error: "invalid_client", status: 401 });
  });
});
