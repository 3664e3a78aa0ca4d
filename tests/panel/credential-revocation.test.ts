import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { POST as token } from "@/app/v1/auth/token/route";
import { revokeApiKey } from "@/lib/auth/api-keys";
import { cacheKeys } from "@/lib/auth/credential-cache";
import { revokeOAuthClient } from "@/lib/auth/oauth-clients";
import { db } from "@/lib/db/client";
import { notifyInvalidation, stopListener } from "@/lib/db/notifications";
import { getEnv } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { actor, newClient, newKey, newTenant } from "../helpers/factory";
import { call } from "../helpers/http";
import { untilLockWaiters } from "../helpers/lock-waits";

// Revoking an API key or an OAuth client (panel, CLI) is one change however many times it is asked at once: one
// revocation time, one audit row, one invalidation notice; a second revocation — at the same moment or later — answers
// the credential as the first left it. Another tenant's credential is not found.

vi.mock("@/lib/db/notifications", async (original) => {
  const real = await original<typeof import("@/lib/db/notifications")>();
  return { ...real, notifyInvalidation: vi.fn(real.notifyInvalidation) };
});
afterAll(() => stopListener()); // the token endpoint's credential lookups start it
const notices = (key: string) => vi.mocked(notifyInvalidation).mock.calls.filter(([, payload]) => payload === key).length;

/** Runs both revocations while another transaction holds the credential's row, releasing it only once both wait for
 *  it — a revocation that read the row before writing it would have read it unrevoked in both. */
async function atOnce<T>(table: "api_keys" | "oauth_clients", id: string, revoke: () => Promise<T>): Promise<[T, T]> {
  const hold = new pg.Client({ connectionString: getEnv().DATABASE_URL });
  await hold.connect();
  try {
    await hold.query("BEGIN");
    await hold.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
    const both = Promise.all([revoke(), revoke()]);
    await untilLockWaiters(2); // both wait on a lock (the second behind the first, in PostgreSQL's queue for the row)
    await hold.query("COMMIT");
    return await both;
  } finally {
    await hold.end();
  }
}

describe("revoking a credential twice at once", () => {
  it("an API key: one revocation time, one audit row, one notice; both answers are the key as revoked", async () => {
    const { tenant } = await newTenant();
    const { apiKey } = await newKey(tenant.id);
    const keyHash = (await db().apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).keyHash;
    const [first, second] = await atOnce("api_keys", apiKey.id, () => revokeApiKey(tenant.id, apiKey.id, actor));

    const row = await db().apiKey.findUniqueOrThrow({ where: { id: apiKey.id } });
    const revoked = { ...apiKey, revoked_at: row.revokedAt!.toISOString() };
    expect([first, second]).toEqual([revoked, revoked]);
    const audit = await db().auditLog.findMany({ where: { tenantId: tenant.id, action: "api_key.revoked" } });
    expect(audit.map((a) => [a.targetId, a.actorLabel, a.metadata])).toEqual([[apiKey.id, "test", { name: "test key" }]]);
    expect(notices(cacheKeys.apiKey(keyHash))).toBe(1);

    // Later, the same answer and nothing written; another tenant's key is not found.
    expect(await revokeApiKey(tenant.id, apiKey.id, actor)).toEqual(revoked);
    expect(await revokeApiKey((await newTenant()).tenant.id, apiKey.id, actor).catch((e: unknown) => e)).toEqual(new DomainError("not_found", "API key not found"));
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).revokedAt).toEqual(row.revokedAt);
    expect(await db().auditLog.count({ where: { tenantId: tenant.id, action: "api_key.revoked" } })).toBe(1);
    expect(notices(cacheKeys.apiKey(keyHash))).toBe(1);
  });

  it("an OAuth client: one revocation time (its refresh tokens' too), one audit row, one notice; both answers alike", async () => {
    const { tenant } = await newTenant();
    const { client, clientSecret } = await newClient(tenant.id);
    const granted = await call(token, { path: "/v1/auth/token", form: { grant_type: "client_credentials", client_id: client.client_id, client_secret: clientSecret } });
    expect(granted.status).toBe(200);
    // The grant records the client's last use off the request's path: let it land before the revocations start.
    for (let i = 0; i < 200 && (await db().oAuthClient.findUniqueOrThrow({ where: { id: client.id } })).lastUsedAt === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const [first, second] = await atOnce("oauth_clients", client.id, () => revokeOAuthClient(tenant.id, client.id, actor));

    const row = await db().oAuthClient.findUniqueOrThrow({ where: { id: client.id } });
    const revoked = { ...client, last_used_at: row.lastUsedAt!.toISOString(), revoked_at: row.revokedAt!.toISOString() };
    expect([first, second]).toEqual([revoked, revoked]);
    const audit = await db().auditLog.findMany({ where: { tenantId: tenant.id, action: "oauth_client.revoked" } });
    expect(audit.map((a) => [a.targetId, a.actorLabel, a.metadata])).toEqual([[client.id, "test", { name: "test client", client_id: client.client_id }]]);
    expect(notices(cacheKeys.oauthClient(client.client_id))).toBe(1);
    const refreshTokens = await db().refreshToken.findMany({ where: { oauthClientId: client.id } });
    expect(refreshTokens.map((t) => t.revokedAt)).toEqual([row.revokedAt]);

    expect(await revokeOAuthClient(tenant.id, client.id, actor)).toEqual(revoked);
    expect(await revokeOAuthClient((await newTenant()).tenant.id, client.id, actor).catch((e: unknown) => e)).toEqual(new DomainError("not_found", "OAuth client not found"));
    expect((await db().oAuthClient.findUniqueOrThrow({ where: { id: client.id } })).revokedAt).toEqual(row.revokedAt);
    expect(await db().auditLog.count({ where: { tenantId: tenant.id, action: "oauth_client.revoked" } })).toBe(1);
    expect(notices(cacheKeys.oauthClient(client.client_id))).toBe(1);
    expect((await db().refreshToken.findMany({ where: { oauthClientId: client.id } })).map((t) => t.revokedAt)).toEqual([row.revokedAt]);
  });
});
