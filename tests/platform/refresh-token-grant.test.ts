import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { POST as token } from "@/app/v1/auth/token/route";
import { GET as health } from "@/app/v1/health/route";
import { sha256Hex } from "@/lib/auth/secrets";
import { purgeEndedGrants } from "@/lib/auth/token-retention";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { getEnv } from "@/lib/env";
import { newClient, newTenant } from "../helpers/factory";
import { bearer, call } from "../helpers/http";

afterAll(() => stopListener());

const REUSED = "The refresh token was already used; every token of its grant is now revoked";

// A refresh-token grant (RFC 9700): one family of single-use tokens that ends 30 days after the client authenticated,
// however often it rotates; any use of a spent token revokes the family.
async function grant() {
  const { tenant } = await newTenant();
  const { client, clientSecret } = await newClient(tenant.id);
  const form = (extra: Record<string, string>) => ({ client_id: client.client_id, client_secret: clientSecret, ...extra });
  const first = await call(token, { path: "/v1/auth/token", form: form({ grant_type: "client_credentials" }) });
  expect(first.status).toBe(200);
  const refresh = (refreshToken: string) => call(token, { path: "/v1/auth/token", form: form({ grant_type: "refresh_token", refresh_token: refreshToken }) });
  const row = (refreshToken: string) => db().refreshToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(refreshToken) } });
  const familyId = (await row(first.body.refresh_token)).familyId;
  const family = () => db().refreshToken.findMany({ where: { familyId }, orderBy: { createdAt: "asc" } });
  return { tenant, first: first.body, refresh, row, familyId, family };
}

const invalidGrant = (detail: string) => ({
  type: "urn:credit-platform:problem:invalid_grant",
  title: "The grant is invalid, expired or revoked",
  status: 400,
  detail,
  code: "invalid_grant",
  request_id: expect.any(String),
  error: "invalid_grant",
  error_description: detail,
});

describe("refresh-token grants", () => {
  it("a spent token presented after it expired is still a reuse: the whole grant is revoked", async () => {
    const g = await grant();
    const second = await g.refresh(g.first.refresh_token);
    expect(second.status).toBe(200);
    await db().refreshToken.update({ where: { tokenHash: sha256Hex(g.first.refresh_token) }, data: { expiresAt: new Date(Date.now() - 1000) } });

    const reuse = await g.refresh(g.first.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual(invalidGrant(REUSED));
    expect((await g.family()).map((t) => t.revokedAt !== null)).toEqual([true, true]);
    expect(await db().revokedTokenFamily.count({ where: { familyId: g.familyId } })).toBe(1);
    expect((await g.refresh(second.body.refresh_token)).body).toEqual(invalidGrant("The refresh token was revoked"));
    expect((await call(health, { path: "/v1/health", headers: bearer(second.body.access_token, g.tenant.id) })).status).toBe(401);
  });

  it("a token of a revoked grant does not refresh even when its own row escaped the revocation", async () => {
    const g = await grant();
    const second = (await g.refresh(g.first.refresh_token)).body;
    // What a revocation racing a rotation used to leave behind: the family revoked, its newest token not.
    await db().revokedTokenFamily.create({ data: { familyId: g.familyId } });
    expect((await g.row(second.refresh_token)).revokedAt).toBeNull();

    const res = await g.refresh(second.refresh_token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidGrant("The refresh token was revoked"));
    const family = await g.family();
    expect(family.map((t) => [t.usedAt !== null, t.revokedAt !== null])).toEqual([[true, true], [false, true]]);
  });

  it("a revocation that starts while a rotation is committing also revokes the rotation's new token", async () => {
    const g = await grant();
    const second = (await g.refresh(g.first.refresh_token)).body;
    // Hold the rotation of `second` after it has spent it and inserted its successor, not yet committed: a trigger on
    // this family's inserts waits for an advisory lock the test holds.
    const hold = new pg.Client({ connectionString: getEnv().DATABASE_URL });
    await hold.connect();
    const fn = `hold_rotation_${g.familyId.replace(/-/g, "_")}`;
    const lockKey = 770_000 + Math.floor(Math.random() * 10_000);
    try {
      await hold.query(`SELECT pg_advisory_lock(${lockKey})`);
      await hold.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(${lockKey}); RETURN NEW; END $$`);
      await hold.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON refresh_tokens FOR EACH ROW WHEN (NEW.family_id = '${g.familyId}') EXECUTE FUNCTION ${fn}()`);
      const waiting = async (n: number) => {
        for (;;) {
          const { rows } = await hold.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
          );
          if (rows[0]!.n >= n) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const rotation = g.refresh(second.refresh_token);
      await waiting(1); // the rotation waits in its insert
      const reuse = g.refresh(g.first.refresh_token); // spent: revokes the family
      await waiting(2); // the revocation waits for the rotation
      await hold.query(`SELECT pg_advisory_unlock(${lockKey})`);
      const [rotated, reused] = await Promise.all([rotation, reuse]);
      expect(rotated.status).toBe(200);
      expect(reused.body).toEqual(invalidGrant(REUSED));
      // Every token of the grant is revoked, the one the rotation issued included.
      expect((await g.family()).map((t) => t.revokedAt !== null)).toEqual([true, true, true]);
      expect((await g.refresh(rotated.body.refresh_token)).body).toEqual(invalidGrant("The refresh token was revoked"));
    } finally {
      await hold.query(`DROP TRIGGER IF EXISTS ${fn} ON refresh_tokens`);
      await hold.query(`DROP FUNCTION IF EXISTS ${fn}()`);
      await hold.end();
    }
  });

  it("rotation keeps the grant's end: refresh_token_expires_in counts down, and after it the client authenticates again", async () => {
    const g = await grant();
    expect(g.first.refresh_token_expires_in).toBe(30 * 24 * 3600);
    // 29 days and 23 hours later: one hour of the grant is left.
    const end = new Date(Date.now() + 3600 * 1000);
    await db().refreshToken.updateMany({ where: { familyId: g.familyId }, data: { expiresAt: end } });

    const rotated = await g.refresh(g.first.refresh_token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token_expires_in).toBeGreaterThan(3500);
    expect(rotated.body.refresh_token_expires_in).toBeLessThanOrEqual(3600);
    expect((await g.row(rotated.body.refresh_token)).expiresAt).toEqual(end);

    await db().refreshToken.updateMany({ where: { familyId: g.familyId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await g.refresh(rotated.body.refresh_token)).body).toEqual(invalidGrant("The refresh token has expired"));
  });

  it("the retention purger deletes the tokens of grants that ended over a day ago, then their revocation markers; a live or revoked grant stays as it was", async () => {
    const ended = await grant();
    await ended.refresh(ended.first.refresh_token);
    const revokedEnded = await grant();
    const live = await grant();
    const revokedLive = await grant();
    await revokedLive.refresh(revokedLive.first.refresh_token);
    await revokedLive.refresh(revokedLive.first.refresh_token); // reuse: the grant is revoked
    await db().revokedTokenFamily.create({ data: { familyId: revokedEnded.familyId, revokedAt: new Date(Date.now() - 40 * 86_400_000) } });
    const longAgo = new Date(Date.now() - 2 * 86_400_000);
    await db().refreshToken.updateMany({ where: { familyId: { in: [ended.familyId, revokedEnded.familyId] } }, data: { expiresAt: longAgo } });
    await db().revokedTokenFamily.update({ where: { familyId: revokedLive.familyId }, data: { revokedAt: new Date(Date.now() - 40 * 86_400_000) } });

    while ((await purgeEndedGrants(1000)) > 0);
    expect(await db().refreshToken.count({ where: { familyId: { in: [ended.familyId, revokedEnded.familyId] } } })).toBe(0);
    expect(await db().revokedTokenFamily.count({ where: { familyId: revokedEnded.familyId } })).toBe(0);
    // A live grant keeps its tokens; a revoked one still holding live tokens keeps its marker (it keeps it revoked).
    expect(await live.family()).toHaveLength(1);
    expect(await revokedLive.family()).toHaveLength(2);
    expect(await db().revokedTokenFamily.count({ where: { familyId: revokedLive.familyId } })).toBe(1);
    expect((await live.refresh(live.first.refresh_token)).status).toBe(200);
    expect((await revokedLive.refresh(revokedLive.first.refresh_token)).body).toEqual(invalidGrant("The refresh token was revoked"));
  });
});
