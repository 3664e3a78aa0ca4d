import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { acceptInvitation, createInvitation, invitationByToken, listOpenInvitations, revokeInvitation } from "@/lib/tenants/invitations";
import { changeMemberRole, listMembers, removeMember } from "@/lib/tenants/members";
import { addMember } from "@/lib/tenants/tenants";
import { actor as operator, newTenant } from "../helpers/factory";

// An invitation is only as good as its sender's standing: an owner removed or demoted loses the open links they
// sent, in the same change, audited as revocations; and a link whose sender can no longer invite is refused at
// acceptance even if it escaped that revocation. Otherwise an owner who kept a link to an owner invitation, then was
// removed, comes back an owner through it.

const user = (userId: string, label: string) => ({ type: "user" as const, id: userId, label });
const PASSWORD = "correct horse battery";

async function twoOwners() {
  const { tenant, ownerUserId } = await newTenant();
  const a = user(ownerUserId, `owner@${tenant.slug}.test`);
  const added = await addMember(tenant.id, { email: `b@${tenant.slug}.test`, name: "B", password: PASSWORD, role: "owner" }, a);
  return { tenant, a, b: user(added.userId, `b@${tenant.slug}.test`) };
}

const memberAudit = (tenantId: string) =>
  db().auditLog.findMany({ where: { tenantId, action: { startsWith: "member." } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

describe("invitations when their sender leaves", () => {
  it("an owner removed: the owner link they kept is revoked with the removal and makes no one an owner", async () => {
    const { tenant, a, b } = await twoOwners();
    const comeback = `a.again@${tenant.slug}.test`;
    const kept = await createInvitation(tenant.id, a, { email: comeback, role: "owner" });
    const fromB = await createInvitation(tenant.id, b, { email: `c@${tenant.slug}.test`, role: "viewer" });
    expect(await db().invitation.findUniqueOrThrow({ where: { id: kept.invitation.id } })).toMatchObject({ invitedByUserId: a.id, invitedBy: a.label });

    await removeMember(tenant.id, b, a.id!);

    const row = await db().invitation.findUniqueOrThrow({ where: { id: kept.invitation.id } });
    expect(row.revokedAt).not.toBeNull();
    expect(row.acceptedAt).toBeNull();
    expect(await invitationByToken(kept.token)).toMatchObject({ status: "revoked" });
    await expect(acceptInvitation(kept.token, { name: "A again", password: PASSWORD })).rejects.toMatchObject({ code: "conflict" });
    expect(await db().user.findUnique({ where: { email: comeback } })).toBeNull();
    expect((await listMembers(tenant.id)).map((m) => [m.user_id, m.role])).toEqual([[b.id, "owner"]]);
    // B's own link is untouched.
    expect((await listOpenInvitations(tenant.id)).map((i) => i.id)).toEqual([fromB.invitation.id]);
    const audit = await memberAudit(tenant.id);
    expect(audit.slice(-2).map((e) => [e.action, e.actorId, e.targetId, e.metadata])).toEqual([
      ["member.removed", b.id, a.id, { email: a.label, role: "owner" }],
      ["member.invitation_revoked", b.id, kept.invitation.id, { email: comeback, reason: "the member who sent it was removed" }],
    ]);
  });

  it("an owner demoted: every open link they sent is revoked; promoting another member revokes nothing", async () => {
    const { tenant, a, b } = await twoOwners();
    const first = await createInvitation(tenant.id, a, { email: `x@${tenant.slug}.test`, role: "admin" });
    const second = await createInvitation(tenant.id, a, { email: `y@${tenant.slug}.test`, role: "viewer" });
    const fromB = await createInvitation(tenant.id, b, { email: `z@${tenant.slug}.test`, role: "support" });

    await changeMemberRole(tenant.id, b, b.id!, "owner"); // no change
    await changeMemberRole(tenant.id, a, b.id!, "owner");
    expect((await listOpenInvitations(tenant.id)).map((i) => i.id).sort()).toEqual([first.invitation.id, second.invitation.id, fromB.invitation.id].sort());

    await changeMemberRole(tenant.id, b, a.id!, "admin");
    expect((await listOpenInvitations(tenant.id)).map((i) => i.id)).toEqual([fromB.invitation.id]);
    for (const { token } of [first, second]) {
      await expect(acceptInvitation(token, { name: "Nobody", password: PASSWORD })).rejects.toMatchObject({ code: "conflict" });
    }
    const [changed, ...revoked] = (await memberAudit(tenant.id)).slice(-3);
    expect([changed!.action, changed!.actorId, changed!.targetId]).toEqual(["member.role_changed", b.id, a.id]);
    expect(revoked.map((e) => [e.action, e.actorId, e.targetId, e.metadata]).sort((x, y) => String(x[2]).localeCompare(String(y[2])))).toEqual(
      [first, second]
        .map((i) => ["member.invitation_revoked", b.id, i.invitation.id, { email: i.invitation.email, reason: "the member who sent it can no longer invite" }])
        .sort((x, y) => String(x[2]).localeCompare(String(y[2]))),
    );
    // The revocations took the change's transaction: a refused change revokes nothing.
    const third = await createInvitation(tenant.id, b, { email: `w@${tenant.slug}.test`, role: "viewer" });
    await expect(changeMemberRole(tenant.id, b, b.id!, "viewer")).rejects.toMatchObject({ code: "conflict" }); // the last owner
    expect((await listOpenInvitations(tenant.id)).map((i) => i.id).sort()).toEqual([fromB.invitation.id, third.invitation.id].sort());
  });

  it("refuses at acceptance a link whose sender can no longer invite, even one not revoked; an operator's link still works", async () => {
    const { tenant, a, b } = await twoOwners();
    const escaped = await createInvitation(tenant.id, a, { email: `late@${tenant.slug}.test`, role: "owner" });
    const byOperator = await createInvitation(tenant.id, operator, { email: `op@${tenant.slug}.test`, role: "viewer" });
    expect(await db().invitation.findUniqueOrThrow({ where: { id: byOperator.invitation.id } })).toMatchObject({ invitedByUserId: null });
    // A's role lowered behind the service's back (as by a change that would have missed the revocation).
    await db().membership.update({ where: { tenantId_userId: { tenantId: tenant.id, userId: a.id! } }, data: { role: "support" } });

    await expect(acceptInvitation(escaped.token, { name: "Late", password: PASSWORD })).rejects.toMatchObject({
      code: "conflict",
      message: "The member who sent this invitation can no longer invite: ask an owner for a new link",
    });
    expect(await db().invitation.findUniqueOrThrow({ where: { id: escaped.invitation.id } })).toMatchObject({ acceptedAt: null, acceptedBy: null });
    expect(await db().user.findUnique({ where: { email: `late@${tenant.slug}.test` } })).toBeNull();

    // Gone entirely: the same.
    await db().membership.delete({ where: { tenantId_userId: { tenantId: tenant.id, userId: a.id! } } });
    await expect(acceptInvitation(escaped.token, { name: "Late", password: PASSWORD })).rejects.toMatchObject({ code: "conflict" });

    // A link with no sender to check (the CLI's, or older than the column) is accepted as before.
    const joined = await acceptInvitation(byOperator.token, { name: "Op", password: PASSWORD });
    expect((await listMembers(tenant.id)).map((m) => [m.user_id, m.role])).toEqual([[b.id, "owner"], [joined.userId, "viewer"]]);
  });

  it("an owner removed while their invitation request waited sends no link and revokes none: the role is read again under the tenant's lock", async () => {
    const { tenant, a, b } = await twoOwners();
    const fromB = await createInvitation(tenant.id, b, { email: `keep@${tenant.slug}.test`, role: "viewer" });
    // A's request passed the panel's role check; B's removal of A commits first (as when A's request waited for the lock).
    await removeMember(tenant.id, b, a.id!);
    const before = await memberAudit(tenant.id);

    await expect(createInvitation(tenant.id, a, { email: `via-a@${tenant.slug}.test`, role: "owner" })).rejects.toMatchObject({ code: "forbidden" });
    await expect(revokeInvitation(tenant.id, a, fromB.invitation.id)).rejects.toMatchObject({ code: "forbidden" });
    expect((await listOpenInvitations(tenant.id)).map((i) => i.id)).toEqual([fromB.invitation.id]);
    expect(await db().invitation.count({ where: { tenantId: tenant.id, email: `via-a@${tenant.slug}.test` } })).toBe(0);
    expect((await memberAudit(tenant.id)).length).toBe(before.length);
  });
});
