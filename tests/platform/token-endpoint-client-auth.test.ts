import { afterAll, describe, expect, it } from "vitest";
import { POST as token } from "@/app/v1/auth/token/route";
import { activeOAuthClient } from "@/lib/api/authenticate";
import { ApiError } from "@/lib/api/errors";
import { revokeOAuthClient } from "@/lib/auth/oauth-clients";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { actor, newClient, newTenant } from "../helpers/factory";
import { call } from "../helpers/http";

afterAll(() => stopListener());

const CHALLENGE = 'Basic realm="credit-platform", charset="UTF-8"';
const FORM = { "content-type": "application/x-www-form-urlencoded" };

async function setup() {
  const { tenant } = await newTenant();
  const { client, clientSecret } = await newClient(tenant.id, "sandbox", ["read"]);
  const basic = { authorization: `Basic ${Buffer.from(`${client.client_id}:${clientSecret}`).toString("base64")}` };
  const issued = () => db().refreshToken.count({ where: { oauthClient: { clientId: client.client_id } } });
  return { tenant, client, clientSecret, basic, issued };
}

const invalidClient = (detail: string) => ({
  type: "urn:credit-platform:problem:invalid_client",
  title: "Client authentication failed",
  status: 401,
  detail,
  code: "invalid_client",
  request_id: expect.any(String),
  error: "invalid_client",
  error_description: detail,
});

describe("POST /v1/auth/token: the form and client authentication (RFC 6749 §2.3, §3.2)", () => {
  it("refuses a parameter sent twice (400 invalid_request) instead of taking the last one, and issues nothing", async () => {
    const { client, clientSecret, issued } = await setup();
    const creds = `client_id=${client.client_id}&client_secret=${clientSecret}`;
    const res = await call(token, { path: "/v1/auth/token", headers: FORM, rawBody: `grant_type=password&grant_type=client_credentials&${creds}` });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toEqual({
      type: "urn:credit-platform:problem:invalid_request",
      title: "The token request is invalid",
      status: 400,
      detail: "grant_type: Sent more than once",
      code: "invalid_request",
      request_id: expect.any(String),
      errors: [{ param: "grant_type", in: "body", message: "Sent more than once" }],
      error: "invalid_request",
      error_description: "grant_type: Sent more than once",
    });
    const twiceId = await call(token, { path: "/v1/auth/token", headers: FORM, rawBody: `grant_type=client_credentials&${creds}&client_id=${client.client_id}` });
    expect([twiceId.status, twiceId.body.error, twiceId.body.errors]).toEqual([400, "invalid_request", [{ param: "client_id", in: "body", message: "Sent more than once" }]]);
    expect(await issued()).toBe(0);
    // Sent once each, the same parameters work.
    expect((await call(token, { path: "/v1/auth/token", headers: FORM, rawBody: `grant_type=client_credentials&${creds}` })).status).toBe(200);
  });

  it("accepts HTTP Basic with the same client_id in the form; another client_id or a client_secret beside Basic is invalid_client", async () => {
    const { client, basic, issued } = await setup();
    const ok = await call(token, { path: "/v1/auth/token", headers: basic, form: { grant_type: "client_credentials", client_id: client.client_id } });
    expect(ok.status).toBe(200);
    expect(ok.body.scope).toBe("read");

    const other = await setup();
    const mismatched = await call(token, { path: "/v1/auth/token", headers: basic, form: { grant_type: "client_credentials", client_id: other.client.client_id } });
    expect(mismatched.status).toBe(401);
    expect(mismatched.headers.get("www-authenticate")).toBe(CHALLENGE);
    expect(mismatched.body).toEqual(invalidClient("client_id in the body differs from the HTTP Basic client"));

    const twoMethods = await call(token, { path: "/v1/auth/token", headers: basic, form: { grant_type: "client_credentials", client_id: client.client_id, client_secret: other.clientSecret } });
    expect(twoMethods.status).toBe(401);
    expect(twoMethods.headers.get("www-authenticate")).toBe(CHALLENGE);
    expect(twoMethods.body).toEqual(invalidClient("Use one client authentication method, not two"));
    expect(await issued()).toBe(1);
    expect(await other.issued()).toBe(0);
  });

  it("a client revoked after it authenticated is refused with invalid_client and the Basic challenge", async () => {
    const { tenant, client } = await setup();
    const row = await db().oAuthClient.findUniqueOrThrow({ where: { clientId: client.client_id } });
    const credential = { kind: "oauth_client" as const, id: row.id, tenantId: tenant.id, environment: row.environment, permissions: row.scopes, clientId: row.clientId, label: `oauth_client:${row.id}` };
    expect((await activeOAuthClient(credential)).id).toBe(row.id);
    await revokeOAuthClient(tenant.id, row.id, actor);
    const refused = await activeOAuthClient(credential).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: "invalid_client", status: 401, message: "The client is not active", headers: { "www-authenticate": CHALLENGE } });
  });
});
