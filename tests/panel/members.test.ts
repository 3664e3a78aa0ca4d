import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { acceptInvitation, createInvitation, invitationByToken, listOpenInvitations, revokeInvitation, TooManyPasswordTries } from "@/lib/tenants/invitations";
import { authorizeSignIn, TOO_MANY_ATTEMPTS } from "@/lib/panel/auth-options";
import { SIGN_IN_FAILURES_ALLOWED, SignInAttempts, setSignInAttemptsForTests } from "@/lib/panel/sign-in-attempts";
import { changeMemberRole, listMembers, removeMember } from "@/lib/tenants/members";
import { addMember } from "@/lib/tenants/tenants";
import { verifyPassword } from "@/lib/auth/passwords";
import { newTenant } from "../helpers/factory";

// Members and invitations (issue 12) on the real database: the last-owner rule, also under two concurrent
// demotions; invitation links that work once, expire and are voided by revocation or a new link; isolation.

const owner = (userId: string) => ({ type: "user" as const, id: userId, label: "owner" });

describe("members", () => {
  it("changes roles and removes members, but never the last owner, even when two owners demote each other at once", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const second = await addMember(tenant.id, { email: `second@${tenant.slug}.test`, name: "Second", password: "correct horse battery", role: "owner" }, owner(ownerUserId));
    // Both owners step down at the same moment: the tenant lock lets one through and refuses the other.
    const results = await Promise.allSettled([
      changeMemberRole(tenant.id, owner(ownerUserId), ownerUserId, "admin"),
      changeMemberRole(tenant.id, owner(second.userId), second.userId, "viewer"),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "conflict", message: expect.stringContaining("at least one owner") });
    const members = await listMembers(tenant.id);
    expect(members.filter((m) => m.role === "owner")).toHaveLength(1);
    const lastOwner = members.find((m) => m.role === "owner")!;
    await expect(removeMember(tenant.id, owner(lastOwner.user_id), lastOwner.user_id)).rejects.toMatchObject({ code: "conflict" });
    const other = members.find((m) => m.role !== "owner")!;
    await removeMember(tenant.id, owner(lastOwner.user_id), other.user_id);
    expect((await listMembers(tenant.id)).map((m) => m.user_id)).toEqual([lastOwner.user_id]);
    const audit = await db().auditLog.findMany({ where: { tenantId: tenant.id, action: { startsWith: "member." } }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["member.added", "member.role_changed", "member.removed"]);
    // The account itself stays (it may belong to other tenants).
    expect(await db().user.findUnique({ where: { id: other.user_id } })).not.toBeNull();
  });

  it("another tenant's member is not found", async () => {
    const a = await newTenant();
    const b = await newTenant();
    await expect(changeMemberRole(a.tenant.id, owner(a.ownerUserId), b.ownerUserId, "viewer")).rejects.toMatchObject({ code: "not_found" });
    await expect(removeMember(a.tenant.id, owner(a.ownerUserId), b.ownerUserId)).rejects.toMatchObject({ code: "not_found" });
    expect((await listMembers(b.tenant.id)).map((m) => m.role)).toEqual(["owner"]);
  });
});

describe("invitations", () => {
  it("a new person joins once with the invited role; the link then reads as accepted", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const email = `New.Person@${tenant.slug}.test`;
    // Without SMTP_URL (as in these tests) the platform e-mails nothing: the owner sends the link.
    const mail = { linkBase: "http://localhost:3000", locale: "en" as const };
    const { invitation, token } = await createInvitation(tenant.id, owner(ownerUserId), { email: email.toLowerCase(), role: "support" }, { mail });
    expect(token).toMatch(/^cpinv_[A-Za-z0-9_-]{43}$/);
    expect(invitation.email_delivery).toBeNull();
    expect(await db().email.count({ where: { tenantId: tenant.id } })).toBe(0);
    expect(await db().invitation.findUniqueOrThrow({ where: { id: invitation.id } })).not.toHaveProperty("token");
    expect(await invitationByToken(token)).toMatchObject({ status: "open", role: "support", account_exists: false, tenant_name: tenant.name });
    await expect(acceptInvitation(token, { password: "correct horse battery" })).rejects.toMatchObject({ code: "validation_error" });
    await expect(acceptInvitation(token, { name: "New Person", password: "short" })).rejects.toMatchObject({ code: "validation_error" });
    const joined = await acceptInvitation(token, { name: "New Person", password: "correct horse battery" });
    expect(joined).toMatchObject({ tenantId: tenant.id, email: email.toLowerCase() });
    const user = await db().user.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
    expect(await verifyPassword(user.passwordHash, "correct horse battery")).toBe(true);
    expect((await listMembers(tenant.id)).find((m) => m.user_id === user.id)).toMatchObject({ role: "support", name: "New Person" });
    await expect(acceptInvitation(token, { name: "Again", password: "correct horse battery" })).rejects.toMatchObject({ code: "conflict" });
    expect(await invitationByToken(token)).toMatchObject({ status: "accepted" });
    expect(await listOpenInvitations(tenant.id)).toEqual([]);
    const audit = await db().auditLog.findMany({ where: { tenantId: tenant.id, action: { startsWith: "member." } }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => [a.action, a.actorLabel])).toEqual([["member.invited", "owner"], ["member.joined", email.toLowerCase()]]);
  });

  it("an existing account proves itself with its password; a member cannot be invited again", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const email = `owner@${b.tenant.slug}.test`;
    const { token } = await createInvitation(a.tenant.id, owner(a.ownerUserId), { email, role: "viewer" });
    expect(await invitationByToken(token)).toMatchObject({ account_exists: true });
    await expect(acceptInvitation(token, { password: "wrong password here" })).rejects.toMatchObject({ code: "validation_error" });
    await acceptInvitation(token, { password: "correct horse battery", name: "Ignored" });
    expect((await listMembers(a.tenant.id)).find((m) => m.email === email)).toMatchObject({ role: "viewer", name: "Owner" });
    await expect(createInvitation(a.tenant.id, owner(a.ownerUserId), { email, role: "admin" })).rejects.toMatchObject({ code: "conflict" });
  });

  it("password guesses through invitation links count against the account's sign-in tries: a new link brings none", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const email = `owner@${b.tenant.slug}.test`;
    const tries = new SignInAttempts({ kind: "memory" }, `invite-test-${b.tenant.slug}`);
    setSignInAttemptsForTests(tries);
    try {
      for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED; i++) {
        // A fresh link each time (the owner of A re-invites): the guesses still add up on the account.
        const { token } = await createInvitation(a.tenant.id, owner(a.ownerUserId), { email, role: "viewer" });
        await expect(acceptInvitation(token, { password: `guess-${i}` }, { tries })).rejects.toMatchObject({ code: "validation_error" });
      }
      const { token } = await createInvitation(a.tenant.id, owner(a.ownerUserId), { email, role: "viewer" });
      await expect(acceptInvitation(token, { password: "correct horse battery" }, { tries })).rejects.toBeInstanceOf(TooManyPasswordTries);
      // The same lock as the sign-in form's.
      await expect(authorizeSignIn({ email, password: "correct horse battery" })).rejects.toThrow(TOO_MANY_ATTEMPTS);
      expect((await listMembers(a.tenant.id)).map((m) => m.email)).not.toContain(email);
    } finally {
      setSignInAttemptsForTests(undefined);
    }
  });

  it("expired, revoked, replaced and unknown links do not work; another tenant cannot revoke", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const other = await newTenant();
    const email = `late@${tenant.slug}.test`;
    const past = new Date(Date.now() - 8 * 86_400_000);
    const expired = await createInvitation(tenant.id, owner(ownerUserId), { email, role: "viewer" }, { now: past });
    expect(await invitationByToken(expired.token)).toMatchObject({ status: "expired" });
    await expect(acceptInvitation(expired.token, { name: "Late", password: "correct horse battery" })).rejects.toMatchObject({ code: "conflict" });
    const fresh = await createInvitation(tenant.id, owner(ownerUserId), { email, role: "admin" });
    expect(await invitationByToken(expired.token)).toMatchObject({ status: "revoked" });
    await expect(revokeInvitation(other.tenant.id, owner(other.ownerUserId), fresh.invitation.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await listOpenInvitations(tenant.id)).map((i) => [i.email, i.role, i.status])).toEqual([[email, "admin", "open"]]);
    await revokeInvitation(tenant.id, owner(ownerUserId), fresh.invitation.id);
    await expect(acceptInvitation(fresh.token, { name: "Late", password: "correct horse battery" })).rejects.toMatchObject({ code: "conflict" });
    await expect(invitationByToken("cpinv_unknown")).rejects.toMatchObject({ code: "not_found" });
    await expect(invitationByToken("\u0000")).rejects.toMatchObject({ code: "not_found" });
    expect(await db().user.findUnique({ where: { email } })).toBeNull();
    expect(await listMembers(tenant.id)).toHaveLength(1);
  });

  it("two browsers accepting the same link at once: one joins, the other is refused", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const email = `race@${tenant.slug}.test`;
    const { token } = await createInvitation(tenant.id, owner(ownerUserId), { email, role: "support" });
    const results = await Promise.allSettled([
      acceptInvitation(token, { name: "One", password: "correct horse battery" }),
      acceptInvitation(token, { name: "Two", password: "correct horse battery" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await db().user.count({ where: { email } })).toBe(1);
  });
});
