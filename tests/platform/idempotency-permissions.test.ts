import { afterAll, describe, expect, it } from "vitest";
import { POST as token } from "@/app/v1/auth/token/route";
import { POST as createEndpoint } from "@/app/v1/webhook-endpoints/route";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { newClient, newTenant } from "../helpers/factory";
import { bearer, call } from "../helpers/http";

afterAll(() => stopListener());

// A replay skips the handler and every check it makes. All access tokens of one OAuth client share the client's
// id, so the idempotency namespace also carries the token's permissions: a narrower token never gets a wider one's
// stored response.
describe("idempotent replays and a credential's permissions", () => {
  it("a token narrowed to webhooks:write cannot replay the endpoint (and its secret) a full-scope token created", async () => {
    const { tenant } = await newTenant();
    const { client, clientSecret } = await newClient(tenant.id, "sandbox", ["read", "write"]);
    const accessToken = async (scope?: string) => {
      const form: Record<string, string> = { grant_type: "client_credentials", client_id: client.client_id, client_secret: clientSecret };
      if (scope) form.scope = scope;
      const res = await call(token, { path: "/v1/auth/token", form });
      expect(res.status).toBe(200);
      return res.body.access_token as string;
    };
    const full = await accessToken();
    const narrow = await accessToken("webhooks:write");
    const body = { url: "http://localhost:4999/customers", event_types: ["customer.created"] };
    const send = (accessToken: string) =>
      call(createEndpoint, { path: "/v1/webhook-endpoints", json: body, headers: { ...bearer(accessToken, tenant.id), "x-request-id": "create-customer-hook" } });

    const created = await send(full);
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);

    const forbidden = {
      type: "urn:credit-platform:problem:forbidden",
      title: expect.any(String),
      status: 403,
      detail: "Events of type customer.created carry customers data: this needs the customers:read permission",
      code: "forbidden",
      request_id: "create-customer-hook",
    };
    const replayedByNarrow = await send(narrow);
    expect(replayedByNarrow.status).toBe(403);
    expect(replayedByNarrow.headers.get("idempotent-replayed")).toBeNull();
    expect(replayedByNarrow.body).toEqual(forbidden);
    expect(replayedByNarrow.text).not.toContain("whsec_");
    // The narrow token's own outcome is what it replays.
    const again = await send(narrow);
    expect([again.status, again.headers.get("idempotent-replayed"), again.body]).toEqual([403, "true", forbidden]);

    // Another token of the same client with the same scopes (a refreshed one, say) still gets the replay: a retry
    // after a token renewal must not create the endpoint twice.
    const renewed = await accessToken();
    const replayed = await send(renewed);
    expect([replayed.status, replayed.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(replayed.body).toEqual(created.body);
    expect(await db().webhookEndpoint.count({ where: { tenantId: tenant.id } })).toBe(1);
  });
});
