import { afterAll, describe, expect, it } from "vitest";
import { POST as token } from "@/app/v1/auth/token/route";
import { POST as createEndpoint } from "@/app/v1/webhook-endpoints/route";
import { POST as rotateSecret } from "@/app/v1/webhook-endpoints/[id]/rotate-secret/route";
import { requestPasswordReset } from "@/lib/auth/password-reset";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { createInvitation } from "@/lib/tenants/invitations";
import { newClient, newKey, newTenant } from "../helpers/factory";
import { call } from "../helpers/http";

afterAll(() => stopListener());

describe("secrets at rest", () => {
  it("stores no API key, client secret, webhook secret, refresh or access token, invitation or reset link in plaintext anywhere in the database", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const invited = await createInvitation(tenant.id, { type: "user", id: ownerUserId, label: "owner" }, { email: `new@${tenant.slug}.test`, role: "viewer" });
    const reset = (await requestPasswordReset(`owner@${tenant.slug}.test`, null))!;
    const { key } = await newKey(tenant.id);
    const { key: live } = await newKey(tenant.id, "production");
    const { client, clientSecret } = await newClient(tenant.id);
    const issued = await call(token, {
      path: "/v1/auth/token",
      form: { grant_type: "client_credentials", client_id: client.client_id, client_secret: clientSecret },
      headers: { "x-request-id": "secret-scan-1" },
    });
    expect(issued.status).toBe(200);
    const refreshed = await call(token, {
      path: "/v1/auth/token",
      form: { grant_type: "refresh_token", refresh_token: issued.body.refresh_token, client_id: client.client_id, client_secret: clientSecret },
    });
    expect(refreshed.status).toBe(200);
    // A webhook endpoint created and its secret rotated under X-Request-Id: the idempotency records keep the
    // responses (for replays) sealed, and a replay still shows the same secret.
    const headers = { authorization: `Bearer ${key}`, "x-tenant-id": tenant.id };
    const created = await call(createEndpoint, { path: "/v1/webhook-endpoints", headers: { ...headers, "x-request-id": "scan-hook-1" }, json: { url: "http://localhost:4999/scan", event_types: ["*"] } });
    expect(created.status).toBe(201);
    const replayed = await call(createEndpoint, { path: "/v1/webhook-endpoints", headers: { ...headers, "x-request-id": "scan-hook-1" }, json: { url: "http://localhost:4999/scan", event_types: ["*"] } });
    expect([replayed.headers.get("idempotent-replayed"), replayed.body.secret]).toEqual(["true", created.body.secret]);
    const rotated = await call(rotateSecret, {
      path: `/v1/webhook-endpoints/${created.body.id}/rotate-secret`,
      headers: { ...headers, "x-request-id": "scan-rotate-1" },
      params: { id: created.body.id },
      json: {},
    });
    expect(rotated.status).toBe(200);
    const secrets = [created.body.secret, rotated.body.secret, key, live, clientSecret, issued.body.refresh_token, issued.body.access_token, refreshed.body.refresh_token, refreshed.body.access_token, invited.token, reset.token];
    // The random part alone must not appear either (e.g. stored without its prefix). Its first 24
    // characters are searched: the last four are shown in the panel by design (last4).
    const needles = secrets.flatMap((s: string) => [s, s.replace(/^(sk|cs|rt|cpinv|cppwr|whsec)_((test|live)_)?/, "").slice(0, 24)]);

    const columns = await db().$queryRaw<{ table_name: string; column_name: string }[]>`
      SELECT table_name::text AS table_name, column_name::text AS column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY')`;
    expect(columns.length).toBeGreaterThan(10);
    // Searched by PostgreSQL (strpos: no LIKE wildcards), so the scan stays quick however much the suite stored before.
    const holding: string[] = [];
    for (const { table_name, column_name } of columns) {
      const [found] = await db().$queryRawUnsafe<{ hit: boolean }[]>(
        `SELECT EXISTS (SELECT 1 FROM "${table_name}" t, unnest($1::text[]) AS n WHERE strpos(t."${column_name}"::text, n) > 0) AS hit`,
        needles,
      );
      if (found!.hit) holding.push(`${table_name}.${column_name}`);
    }
    expect(holding, "columns holding a secret").toEqual([]);
  });
});
