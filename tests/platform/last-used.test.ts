import { describe, expect, it, vi } from "vitest";
import { GET as health } from "@/app/v1/health/route";
import { touchLastUsed } from "@/lib/auth/last-used";
import { db } from "@/lib/db/client";
import { newKey, newTenant } from "../helpers/factory";
import { bearer, call, PRODUCTION } from "../helpers/http";

// A key's last_used_at (shown in the panel to tell whether a key is safe to revoke) moves only when the key is used
// for its own tenant and environment: refused on the other environment's address or under another X-Tenant-Id, it
// was "used" all the same.

vi.mock("@/lib/auth/last-used", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/auth/last-used")>();
  return { ...real, touchLastUsed: vi.fn(real.touchLastUsed) };
});
const touchedFor = (id: string) => vi.mocked(touchLastUsed).mock.calls.filter(([, touched]) => touched === id).length;

describe("last_used_at", () => {
  it("is written when a key is used for its tenant and environment, not when it is refused for another", async () => {
    const { tenant } = await newTenant();
    const other = await newTenant();
    const { apiKey, key } = await newKey(tenant.id);
    expect((await call(health, { base: PRODUCTION, path: "/v1/health", headers: bearer(key, tenant.id) })).status).toBe(401);
    expect((await call(health, { path: "/v1/health", headers: bearer(key, other.tenant.id) })).status).toBe(403);
    expect(touchedFor(apiKey.id)).toBe(0);

    expect((await call(health, { path: "/v1/health", headers: bearer(key, tenant.id) })).status).toBe(200);
    expect(touchedFor(apiKey.id)).toBe(1);
    for (let i = 0; i < 200 && (await db().apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).lastUsedAt === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25)); // written off the request's path
    }
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).lastUsedAt).toBeInstanceOf(Date);
  });
});
