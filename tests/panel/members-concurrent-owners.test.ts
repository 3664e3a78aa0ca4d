import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { changeMemberRole, listMembers, removeMember } from "@/lib/tenants/members";
import { addMember } from "@/lib/tenants/tenants";
import { newTenant } from "../helpers/factory";

// The caller's role is checked before the tenant lock (the panel route) and again under it: of two owners removing or
// demoting each other at the same moment, the first change wins and the second caller, no longer an owner, is
// refused (403) — never both, which would leave the tenant without an owner.

const user = (userId: string, label: string) => ({ type: "user" as const, id: userId, label });

/** A tenant with owners A and B, and a third owner C when `third` (then the last-owner rule alone stops nothing). */
async function owners(third = false) {
  const { tenant, ownerUserId } = await newTenant();
  const a = user(ownerUserId, `owner@${tenant.slug}.test`);
  const owner = async (name: string) => {
    const email = `${name}@${tenant.slug}.test`;
    const added = await addMember(tenant.id, { email, name, password: "correct horse battery", role: "owner" }, a);
    return user(added.userId, email);
  };
  return { tenant, a, b: await owner("b"), c: third ? await owner("c") : null };
}

function oneWon(results: PromiseSettledResult<unknown>[]) {
  expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
  const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
  expect(refused.reason).toMatchObject({ code: "forbidden", message: "Only owners invite, change or remove members" });
  return results.findIndex((r) => r.status === "fulfilled");
}

describe("two owners acting on each other at once", () => {
  it("removing each other: exactly one is removed and the tenant keeps an owner", async () => {
    const { tenant, a, b } = await owners();
    const results = await Promise.allSettled([removeMember(tenant.id, a, b.id!), removeMember(tenant.id, b, a.id!)]);
    const winner = [a, b][oneWon(results)]!;
    expect((await listMembers(tenant.id)).map((m) => [m.user_id, m.role])).toEqual([[winner.id, "owner"]]);
    const removed = await db().auditLog.findMany({ where: { tenantId: tenant.id, action: "member.removed" } });
    expect(removed.map((e) => e.actorId)).toEqual([winner.id]);
  });

  it("removing each other beside a third owner: still only one is removed (the last-owner rule would not stop both)", async () => {
    const { tenant, a, b, c } = await owners(true);
    const results = await Promise.allSettled([removeMember(tenant.id, a, b.id!), removeMember(tenant.id, b, a.id!)]);
    const winner = [a, b][oneWon(results)]!;
    expect((await listMembers(tenant.id)).map((m) => m.user_id).sort()).toEqual([winner.id, c!.id].sort());
    expect(await db().auditLog.count({ where: { tenantId: tenant.id, action: "member.removed" } })).toBe(1);
  });

  it("demoting each other beside a third owner: exactly one is demoted", async () => {
    const { tenant, a, b, c } = await owners(true);
    const results = await Promise.allSettled([changeMemberRole(tenant.id, a, b.id!, "viewer"), changeMemberRole(tenant.id, b, a.id!, "viewer")]);
    const winner = [a, b][oneWon(results)]!;
    const loser = winner === a ? b : a;
    const roles = Object.fromEntries((await listMembers(tenant.id)).map((m) => [m.user_id, m.role]));
    expect(roles).toEqual({ [winner.id!]: "owner", [loser.id!]: "viewer", [c!.id!]: "owner" });
    expect(await db().auditLog.count({ where: { tenantId: tenant.id, action: "member.role_changed" } })).toBe(1);
  });

  it("a member removed or demoted no longer acts, whatever their session said", async () => {
    const { tenant, a, b, c } = await owners(true);
    await removeMember(tenant.id, a, b.id!);
    await expect(changeMemberRole(tenant.id, b, a.id!, "viewer")).rejects.toMatchObject({ code: "forbidden" });
    await expect(removeMember(tenant.id, b, a.id!)).rejects.toMatchObject({ code: "forbidden" });
    await changeMemberRole(tenant.id, a, c!.id!, "admin");
    await expect(removeMember(tenant.id, c!, a.id!)).rejects.toMatchObject({ code: "forbidden" });
    expect((await listMembers(tenant.id)).map((m) => [m.user_id, m.role])).toEqual([[a.id, "owner"], [c!.id, "admin"]]);
  });
});
