import { describe, expect, it } from "vitest";
import { listApiKeys, revokeApiKey } from "@/lib/auth/api-keys";
import { REVOKED_SHOWN_DAYS } from "@/lib/auth/credential";
import { listOAuthClients, revokeOAuthClient } from "@/lib/auth/oauth-clients";
import { db } from "@/lib/db/client";
import { actor, newClient, newKey, newTenant } from "../helpers/factory";

// The panel's and the CLI's credential lists: every live key and client, and those revoked in the last 90 days — the
// lists kept every revoked one for ever.

describe("credential lists", () => {
  it("show live credentials and those revoked in the last 90 days, newest first", async () => {
    const { tenant } = await newTenant();
    const [live, recent, old] = [await newKey(tenant.id), await newKey(tenant.id), await newKey(tenant.id)];
    const [liveClient, oldClient] = [await newClient(tenant.id), await newClient(tenant.id)];
    await revokeApiKey(tenant.id, recent.apiKey.id, actor);
    await revokeApiKey(tenant.id, old.apiKey.id, actor);
    await revokeOAuthClient(tenant.id, oldClient.client.id, actor);
    const longAgo = new Date(Date.now() - (REVOKED_SHOWN_DAYS + 1) * 86_400_000);
    await db().apiKey.update({ where: { id: old.apiKey.id }, data: { revokedAt: longAgo } });
    await db().oAuthClient.update({ where: { id: oldClient.client.id }, data: { revokedAt: longAgo } });

    expect((await listApiKeys(tenant.id)).map((k) => [k.id, k.revoked_at !== null])).toEqual([[recent.apiKey.id, true], [live.apiKey.id, false]]);
    expect((await listOAuthClients(tenant.id)).map((c) => c.id)).toEqual([liveClient.client.id]);
  });
});
