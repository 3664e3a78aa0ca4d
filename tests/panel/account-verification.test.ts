import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { requestPasswordReset, resetPassword } from "@/lib/auth/password-reset";
import { db } from "@/lib/db/client";
import { authorizeSignIn } from "@/lib/panel/auth-options";
import { acceptInvitation, createInvitation } from "@/lib/tenants/invitations";
import { addMember, createTenant } from "@/lib/tenants/tenants";
import { newTenant } from "../helpers/factory";

// An invitation link is shown to the inviter too: an owner could invite an address that is not theirs, open the link
// and set its password, then wait for an operator to give that address a tenant of its own. Accounts made that way are
// unproven (`email_verified_at` null); when an operator gives one a tenant, its password becomes the operator's and
// the one set through the link stops working. Proven accounts (made by an operator, or reset through the inbox) keep
// theirs.

const gate = vi.hoisted(() => ({ hold: null as Promise<void> | null, reached: null as (() => void) | null }));
vi.mock("@/lib/auth/passwords", async (original) => {
  const real = await original<typeof import("@/lib/auth/passwords")>();
  return {
    ...real,
    hashPassword: async (password: string) => {
      if (gate.hold) {
        gate.reached?.();
        await gate.hold;
      }
      return real.hashPassword(password);
    },
  };
});

const OPERATOR = { type: "cli", label: "test" } as const;
const slug = () => `v-${randomBytes(4).toString("hex")}`;

async function invitedAccount(email: string, password: string) {
  const { tenant, ownerUserId } = await newTenant();
  const { token } = await createInvitation(tenant.id, { type: "user", id: ownerUserId, label: "inviter" }, { email, role: "viewer" }, {});
  await acceptInvitation(token, { name: "Set by the inviter", password });
  return db().user.findUniqueOrThrow({ where: { email } });
}

describe("accounts whose address was never proven", () => {
  it("an operator giving one a tenant replaces the password set through the link, ending its sessions", async () => {
    const email = `ceo@${slug()}.test`;
    const made = await invitedAccount(email, "set by the inviter 123");
    expect(made.emailVerifiedAt).toBeNull();
    expect(await authorizeSignIn({ email, password: "set by the inviter 123" })).not.toBeNull();

    const { tenant, ownerCreated, ownerPasswordSet } = await createTenant({ slug: slug(), name: "Banco Vítima", owner: { email, name: "CEO", password: "handed over by the operator" } }, OPERATOR);
    expect([ownerCreated, ownerPasswordSet]).toEqual([false, true]);
    expect(await authorizeSignIn({ email, password: "set by the inviter 123" })).toBeNull();
    expect(await authorizeSignIn({ email, password: "handed over by the operator" })).not.toBeNull();
    const after = await db().user.findUniqueOrThrow({ where: { email } });
    expect(after.emailVerifiedAt).not.toBeNull();
    expect(after.passwordChangedAt).not.toBeNull();
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: tenant.id, action: "user.password_replaced" } });
    expect(audit).toMatchObject({ actorType: "cli", targetId: made.id, metadata: { email } });

    // Proven now: a later tenant leaves it alone.
    const { passwordSet } = await addMember((await newTenant()).tenant.id, { email, name: "CEO", password: "ignored for this account", role: "admin" }, OPERATOR);
    expect(passwordSet).toBe(false);
    expect(await authorizeSignIn({ email, password: "handed over by the operator" })).not.toBeNull();
  });

  it("changing the role of someone already in the tenant grants nothing new: the password set through the link stays", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const email = `member@${slug()}.test`;
    const { token } = await createInvitation(tenant.id, { type: "user", id: ownerUserId, label: "inviter" }, { email, role: "viewer" }, {});
    await acceptInvitation(token, { name: "Joe", password: "joined by the link 123" });
    const { created, passwordSet } = await addMember(tenant.id, { email, name: "Joe", password: "not used for a promotion", role: "admin" }, OPERATOR);
    expect([created, passwordSet]).toEqual([false, false]);
    expect(await authorizeSignIn({ email, password: "joined by the link 123" })).not.toBeNull();
    expect(await db().membership.findFirstOrThrow({ where: { tenantId: tenant.id, user: { email } } })).toMatchObject({ role: "admin" });
  });

  it("a reset through the inbox proves the address: the account keeps its password when given a tenant", async () => {
    const email = `person@${slug()}.test`;
    await invitedAccount(email, "first password 1234");
    const { token } = (await requestPasswordReset(email, null))!;
    await resetPassword(token, { password: "chosen from my inbox" });
    expect((await db().user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt).not.toBeNull();
    const { created, passwordSet } = await addMember((await newTenant()).tenant.id, { email, name: "Person", password: "not used at all 123", role: "support" }, OPERATOR);
    expect([created, passwordSet]).toEqual([false, false]);
    expect(await authorizeSignIn({ email, password: "chosen from my inbox" })).not.toBeNull();
  });

  it("accounts an operator makes are proven, and keep their password when given another tenant", async () => {
    const { tenant } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    expect((await db().user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt).not.toBeNull();
    const { ownerPasswordSet } = await createTenant({ slug: slug(), name: "Second", owner: { email, name: "Owner", password: "not used at all 123" } }, OPERATOR);
    expect(ownerPasswordSet).toBe(false);
    expect(await authorizeSignIn({ email, password: "correct horse battery" })).not.toBeNull();
  });

  it("an invitation accepted as a new account while that account is being made elsewhere joins nobody", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const email = `race@${slug()}.test`;
    const { token } = await createInvitation(tenant.id, { type: "user", id: ownerUserId, label: "inviter" }, { email, role: "admin" }, {});
    let release!: () => void;
    gate.hold = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (gate.reached = resolve));
    const accepting = acceptInvitation(token, { name: "Someone", password: "a new account password" }).catch((e: unknown) => e);
    await reached; // checked that no account exists, hashing the new password …
    const other = await db().user.create({ data: { id: `usr_${randomBytes(8).toString("hex")}`, email, name: "Made elsewhere", passwordHash: "x" } });
    gate.hold = null;
    release();
    expect(await accepting).toMatchObject({ code: "conflict" });
    expect(await db().membership.count({ where: { tenantId: tenant.id, userId: other.id } })).toBe(0);
    expect((await db().invitation.findFirstOrThrow({ where: { tenantId: tenant.id, email } })).acceptedAt).toBeNull();
  });
});
