import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { changePassword, isWrongCurrentPassword } from "@/lib/auth/account-password";
import { passwordResetByToken, requestPasswordReset, resetPassword } from "@/lib/auth/password-reset";
import { verifyPassword } from "@/lib/auth/passwords";
import { db } from "@/lib/db/client";
import { DomainError } from "@/lib/errors";
import { acceptInvitation, createInvitation } from "@/lib/tenants/invitations";
import { addMember, createTenant } from "@/lib/tenants/tenants";
import { newTenant } from "../helpers/factory";

// Changing one's own password (Settings → Your account): the current password is required, the new one must differ;
// the change is recorded on the account (older panel sessions end: lib/panel/session.ts) and audited in every tenant
// the account belongs to. It voids the account's open reset links, and it never undoes a reset (or an operator's
// replacement) that committed after its current password was checked.

// Reset links are e-mailed (the e-mail is only queued here: no worker runs). Set before lib/env.ts reads the config.
vi.hoisted(() => {
  process.env.SMTP_URL = "smtp://127.0.0.1:2525";
});

// `duringHash` runs once, the next time a password is hashed: changePassword hashes the new password after checking the
// current one and before writing, so whatever it does lands exactly between the check and the write.
const hook = vi.hoisted(() => ({ duringHash: null as (() => Promise<unknown>) | null }));
vi.mock("@/lib/auth/passwords", async (original) => {
  const real = await original<typeof import("@/lib/auth/passwords")>();
  return {
    ...real,
    hashPassword: async (password: string) => {
      const run = hook.duringHash;
      hook.duringHash = null;
      await run?.();
      return real.hashPassword(password);
    },
  };
});

const session = vi.hoisted(() => ({ user: null as null | { userId: string; email: string; tenantId: string; role: string; memberships: never[] } }));
vi.mock("@/lib/panel/session", () => ({ currentPanelUser: async () => session.user }));

// POST /api/panel/account/password as the signed-in `session.user`.
const ORIGIN = "http://localhost:3000";
async function postChange(body: unknown) {
  const { POST } = await import("@/app/api/panel/account/password/route");
  const res = await POST(
    new Request(`${ORIGIN}/api/panel/account/password`, { method: "POST", headers: { "content-type": "application/json", origin: ORIGIN, "accept-language": "en" }, body: JSON.stringify(body) }),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, body: await res.json() };
}

const OPERATOR = { type: "cli", label: "test" } as const;
const changedMeanwhile = new DomainError("conflict", "Your password changed meanwhile (a reset link or an operator): sign in with the new one");

async function auditOf(userId: string) {
  const rows = await db().auditLog.findMany({ where: { targetId: userId, action: { startsWith: "user.password" } }, orderBy: { createdAt: "asc" } });
  return rows.map((r) => r.action);
}

describe("changing one's password", () => {
  it("requires the current password, refuses the same one, records the change and audits it in each tenant", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const email = `owner@${a.tenant.slug}.test`;
    await addMember(b.tenant.id, { email, name: "Owner", password: "ignored for an existing account", role: "viewer" }, { type: "cli", label: "test" });
    const user = await db().user.findUniqueOrThrow({ where: { email } });

    const wrong = await changePassword(user.id, { current_password: "not my password", new_password: "a brand new passphrase" }).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: "validation_error", details: { errors: [{ param: "current_password", in: "body", message: "Wrong password" }] } });
    expect(isWrongCurrentPassword(wrong)).toBe(true);
    const same = await changePassword(user.id, { current_password: "correct horse battery", new_password: "correct horse battery" }).catch((e: unknown) => e);
    expect(same).toMatchObject({ code: "validation_error", details: { errors: [{ param: "new_password" }] } });
    expect(isWrongCurrentPassword(same)).toBe(false);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).passwordChangedAt).toBeNull();

    const before = Date.now();
    expect(await changePassword(user.id, { current_password: "correct horse battery", new_password: "a brand new passphrase" })).toEqual({ email });
    const after = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword(after.passwordHash, "a brand new passphrase")).toBe(true);
    expect(after.passwordChangedAt!.getTime()).toBeGreaterThanOrEqual(before - 5);
    const audit = await db().auditLog.findMany({ where: { action: "user.password_changed", targetId: user.id }, orderBy: { tenantId: "asc" } });
    expect(audit.map((r) => r.tenantId).sort()).toEqual([a.tenant.id, b.tenant.id].sort());
    expect(audit[0]).toMatchObject({ actorType: "user", actorId: user.id, actorLabel: email, metadata: { email } });
  });

  it("voids the account's open reset link and cancels its unsent e-mail", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    const { token } = (await requestPasswordReset(email, { linkBase: "https://painel.example", locale: "en" }))!;
    const mail = await db().email.findFirstOrThrow({ where: { passwordReset: { userId: ownerUserId } } });
    expect(mail.status).toBe("pending");

    await changePassword(ownerUserId, { current_password: "correct horse battery", new_password: "changed by the owner" });
    expect(await passwordResetByToken(token)).toEqual({ email, status: "expired" });
    expect(await db().email.findUniqueOrThrow({ where: { id: mail.id } })).toMatchObject({
      status: "canceled",
      sealedBody: null,
      lastError: "the account's password was changed",
    });
    // Whoever kept the link (from a mailbox they saw a moment) cannot set the password with it.
    const late = await resetPassword(token, { password: "set through the old link" }).catch((e: unknown) => e);
    expect(late).toEqual(new DomainError("conflict", "This link was already used or has expired: ask for a new one"));
    const user = await db().user.findUniqueOrThrow({ where: { id: ownerUserId } });
    expect(await verifyPassword(user.passwordHash, "changed by the owner")).toBe(true);
    expect(await auditOf(ownerUserId)).toEqual(["user.password_changed"]);
  });

  // The reverse order of the test below: the reset's time is taken (and its link read) before its slow hash, the change
  // commits during that hash. The void must hold against the reset's earlier time — also when the link's own expiry
  // fell between the two (the reset began while the link was open, the change came after it expired).
  it.each([
    ["an open link", 1_000, 2_000],
    ["a link that expired during the reset's hash", 59 * 60_000, 61 * 60_000],
  ])("a reset under way when the change voided %s does not go through: the owner's new password stays", async (_, resetAfter, changeAfter) => {
    const { tenant, ownerUserId } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    const requestedAt = new Date();
    const { token } = (await requestPasswordReset(email, null, requestedAt))!;
    const at = (ms: number) => new Date(requestedAt.getTime() + ms);
    let changed = false;
    hook.duringHash = async () => {
      await changePassword(ownerUserId, { current_password: "correct horse battery", new_password: "changed by the owner" }, at(changeAfter));
      changed = true;
    };
    const late = await resetPassword(token, { password: "set through the old link" }, at(resetAfter)).catch((e: unknown) => e);
    expect(changed).toBe(true);
    expect(late).toEqual(new DomainError("conflict", "This link was already used or has expired: ask for a new one"));

    const user = await db().user.findUniqueOrThrow({ where: { id: ownerUserId } });
    expect(await verifyPassword(user.passwordHash, "changed by the owner")).toBe(true);
    expect(user.passwordChangedAt).toEqual(at(changeAfter));
    expect(await passwordResetByToken(token, at(resetAfter))).toEqual({ email, status: "expired" });
    expect(await auditOf(ownerUserId)).toEqual(["user.password_changed"]);
  });

  it("does not overwrite a reset committed after the current password was checked: 409, nothing written", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    const { token } = (await requestPasswordReset(email, null))!;
    // Someone who knows the old password changes it in a session of theirs; the owner's reset (to shut them out)
    // commits in between the check of the old password and the write.
    session.user = { userId: ownerUserId, email, tenantId: tenant.id, role: "owner", memberships: [] };
    let resetAt: Date | undefined;
    hook.duringHash = async () => {
      resetAt = new Date();
      await resetPassword(token, { password: "the owner's reset password" }, resetAt);
    };
    const change = await postChange({ current_password: "correct horse battery", new_password: "the intruder's password" });
    expect(resetAt).toBeInstanceOf(Date);
    expect(change).toEqual({
      status: 409,
      body: {
        type: "urn:credit-platform:problem:conflict",
        title: "The request conflicts with the current state",
        status: 409,
        detail: "Your password changed meanwhile (a reset link or an operator): sign in with the new one",
        code: "conflict",
        request_id: expect.any(String),
      },
    });

    const user = await db().user.findUniqueOrThrow({ where: { id: ownerUserId } });
    expect(await verifyPassword(user.passwordHash, "the owner's reset password")).toBe(true);
    expect(await verifyPassword(user.passwordHash, "the intruder's password")).toBe(false);
    expect(user.passwordChangedAt).toEqual(resetAt);
    expect(await passwordResetByToken(token)).toEqual({ email, status: "used" });
    expect(await auditOf(ownerUserId)).toEqual(["user.password_reset"]);
  });

  it("does not overwrite an operator's replacement of an unproven account's password: 409, nothing written", async () => {
    const email = `ceo@v-${randomBytes(4).toString("hex")}.test`;
    const { tenant, ownerUserId } = await newTenant();
    const { token } = await createInvitation(tenant.id, { type: "user", id: ownerUserId, label: "inviter" }, { email, role: "viewer" }, {});
    await acceptInvitation(token, { name: "Set by the inviter", password: "set by the inviter 123" });
    const made = await db().user.findUniqueOrThrow({ where: { email } });
    expect(made.emailVerifiedAt).toBeNull();

    let replacedIn: string | undefined;
    hook.duringHash = async () => {
      const slug = `v-${randomBytes(4).toString("hex")}`;
      ({ tenant: { id: replacedIn } } = await createTenant({ slug, name: "Banco Vítima", owner: { email, name: "CEO", password: "handed over by the operator" } }, OPERATOR));
    };
    const change = await changePassword(made.id, { current_password: "set by the inviter 123", new_password: "kept by the inviter 456" }).catch((e: unknown) => e);
    expect(replacedIn).toBeDefined();
    expect(change).toEqual(changedMeanwhile);

    const user = await db().user.findUniqueOrThrow({ where: { id: made.id } });
    expect(await verifyPassword(user.passwordHash, "handed over by the operator")).toBe(true);
    expect(await verifyPassword(user.passwordHash, "kept by the inviter 456")).toBe(false);
    expect(await auditOf(made.id)).toEqual(["user.password_replaced"]);
  });
});
