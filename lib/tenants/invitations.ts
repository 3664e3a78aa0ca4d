import type { Email, Invitation, Role } from "@prisma/client";
import { z } from "zod";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { randomSecret, sha256Hex } from "@/lib/auth/secrets";
import { db, type Tx } from "@/lib/db/client";
import { DomainError, invalidField, notFound } from "@/lib/errors";
import type { Locale } from "@/i18n/locales";
import { newId } from "@/lib/ids";
import { invitationEmail } from "@/lib/mail/invitation-email";
import { cancelPendingEmails, enqueueEmail } from "@/lib/mail/outbox";
import { mailEnabled } from "@/lib/mail/transport";
import { lockTenantForMemberChange } from "./manager-lock";
import { canManageMembers } from "./roles";

// Invitations to a tenant's panel. An owner invites an e-mail with a role; the platform answers a link whose token
// is shown once (only its SHA-256 is stored). Whoever opens the link joins with that e-mail: a new account chooses
// its name and password there, an existing account proves itself with its password. A link works once, for
// INVITATION_TTL_DAYS days, and inviting the same e-mail again (or revoking) voids the previous link.
// With SMTP_URL set, the link is also e-mailed to the address (written in the invitation's transaction, sent by the
// worker: lib/mail/mailer.ts), in the inviter's panel language; the view's `email_delivery` says how that went.
// A link is only as good as its sender's standing: a member removed, or demoted below who may invite, has their open
// links revoked with that change (`revokeInvitationsSentBy`), and acceptance refuses a link whose sender is no longer
// allowed to send it — an owner removed while holding a link to an owner invitation does not come back through it.

export const INVITATION_TTL_DAYS = 7;
const TOKEN_PREFIX = "cpinv_";
const ROLES = ["owner", "admin", "support", "viewer"] as const;

/** An invitation's e-mail as its view reports it: the latest one (a new link gets a new invitation row). */
const LATEST_EMAIL = { orderBy: { createdAt: "desc" }, take: 1, select: { status: true } } as const;

export const InviteInput = z.strictObject({
  email: z.email("a valid e-mail address").trim().toLowerCase().max(254),
  role: z.enum(ROLES),
});
export type InviteInput = z.infer<typeof InviteInput>;

export const AcceptInput = z.strictObject({
  name: z.string().trim().min(1).max(120).optional(),
  password: z.string().min(1).max(200),
});
export type AcceptInput = z.infer<typeof AcceptInput>;

export type InvitationStatus = "open" | "accepted" | "revoked" | "expired";
/** The invitation e-mail: null when none was sent (e-mail not configured). */
export type EmailDelivery = "pending" | "sent" | "failed" | "canceled" | null;

export type InvitationView = {
  id: string;
  email: string;
  role: Role;
  status: InvitationStatus;
  invited_by: string;
  created_at: string;
  expires_at: string;
  email_delivery: EmailDelivery;
};

/** How to e-mail the link: the panel's address the link points at, and the inviter's language. */
export type InvitationMail = { linkBase: string; locale: Locale };

export function invitationUrl(base: string, token: string): string {
  return `${base.replace(/\/$/, "")}/invitations/${token}`;
}

export async function createInvitation(
  tenantId: string,
  actor: Actor,
  input: InviteInput,
  options: { mail?: InvitationMail; now?: Date } = {},
): Promise<{ invitation: InvitationView; token: string }> {
  const now = options.now ?? new Date();
  const token = randomSecret(TOKEN_PREFIX);
  return db().$transaction(async (tx) => {
    await lockTenantForMemberChange(tx, tenantId, actor);
    const member = await tx.membership.findFirst({ where: { tenantId, user: { email: input.email } } });
    if (member) throw new DomainError("conflict", `${input.email} is already a member: change their role instead`);
    // A new link replaces any earlier one for the same address (the partial unique index allows one open link).
    const earlier = { tenantId, email: input.email, acceptedAt: null, revokedAt: null };
    await cancelPendingEmails(tx, { invitation: earlier }, "a newer invitation replaced this one");
    await tx.invitation.updateMany({ where: earlier, data: { revokedAt: now } });
    const invitation = await tx.invitation.create({
      data: {
        id: newId("invitation"),
        tenantId,
        email: input.email,
        role: input.role,
        tokenHash: sha256Hex(token),
        invitedBy: actor.label,
        invitedByUserId: actor.type === "user" ? (actor.id ?? null) : null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_DAYS * 86_400_000),
      },
    });
    await writeAudit(tx, {
      tenantId,
      actor,
      action: "member.invited",
      target: { type: "invitation", id: invitation.id },
      metadata: { email: input.email, role: input.role },
    });
    let emails: Pick<Email, "status">[] = [];
    if (options.mail && mailEnabled()) {
      const tenant = await tx.tenant.findUniqueOrThrow({ where: { id: tenantId }, select: { name: true } });
      const content = invitationEmail({
        locale: options.mail.locale,
        tenantName: tenant.name,
        invitedBy: actor.type === "user" ? actor.label : null,
        role: input.role,
        url: invitationUrl(options.mail.linkBase, token),
        expiresAt: invitation.expiresAt,
      });
      await enqueueEmail(tx, { tenantId, invitationId: invitation.id, to: input.email, content });
      emails = [{ status: "pending" }];
    }
    return { invitation: invitationView({ ...invitation, emails }, now), token };
  });
}

/** How long an expired invitation stays in the list, so the owner sees it lapse (then only the audit log has it). */
const EXPIRED_SHOWN_MS = 30 * 24 * 3600 * 1000;

/** The tenant's invitations still waiting for an answer, and those expired in the last 30 days (the list grew for ever). */
export async function listOpenInvitations(tenantId: string, now = new Date()): Promise<InvitationView[]> {
  const rows = await db().invitation.findMany({
    where: { tenantId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date(now.getTime() - EXPIRED_SHOWN_MS) } },
    orderBy: { createdAt: "desc" },
    take: 200,
    include: { emails: LATEST_EMAIL },
  });
  return rows.map((row) => invitationView(row, now));
}

export async function revokeInvitation(tenantId: string, actor: Actor, id: string, now = new Date()): Promise<InvitationView> {
  return db().$transaction(async (tx) => {
    await lockTenantForMemberChange(tx, tenantId, actor);
    const found = await tx.invitation.findFirst({ where: { id, tenantId }, include: { emails: LATEST_EMAIL } });
    if (!found) throw notFound("Invitation");
    if (found.acceptedAt) throw new DomainError("conflict", "The invitation was already accepted: remove the member instead");
    if (found.revokedAt) return invitationView(found, now);
    await cancelPendingEmails(tx, { invitationId: id }, "the invitation was revoked");
    const revoked = await tx.invitation.update({ where: { id }, data: { revokedAt: now }, include: { emails: LATEST_EMAIL } });
    await writeAudit(tx, { tenantId, actor, action: "member.invitation_revoked", target: { type: "invitation", id }, metadata: { email: found.email } });
    return invitationView(revoked, now);
  });
}

/**
 * A member removed (`role` null) or given another role: the open links they sent that they could no longer send are
 * revoked, in the caller's transaction (the change's), each audited and its unsent e-mail canceled as a revocation
 * is. Owners send links for every role (./roles.ts), so today a member who can no longer invite loses them all.
 */
export async function revokeInvitationsSentBy(
  tx: Tx,
  tenantId: string,
  actor: Actor,
  sender: { userId: string; role: Role | null },
  now = new Date(),
): Promise<void> {
  if (sender.role && mayInvite(sender.role)) return;
  const open = await tx.invitation.findMany({ where: { tenantId, invitedByUserId: sender.userId, acceptedAt: null, revokedAt: null } });
  if (open.length === 0) return;
  const ids = open.map((invitation) => invitation.id);
  const reason = sender.role ? "the member who sent it can no longer invite" : "the member who sent it was removed";
  await cancelPendingEmails(tx, { invitationId: { in: ids } }, `the invitation was revoked: ${reason}`);
  await tx.invitation.updateMany({ where: { id: { in: ids } }, data: { revokedAt: now } });
  for (const invitation of open) {
    await writeAudit(tx, {
      tenantId,
      actor,
      action: "member.invitation_revoked",
      target: { type: "invitation", id: invitation.id },
      metadata: { email: invitation.email, reason },
    });
  }
}

/** Whether a member with this role may send invitations (owners, for every role: ./roles.ts). */
const mayInvite = (role: Role) => canManageMembers(role);

async function findByToken(token: string) {
  const found = token.startsWith(TOKEN_PREFIX) && token.length <= 100
    ? await db().invitation.findUnique({ where: { tokenHash: sha256Hex(token) }, include: { tenant: true } })
    : null;
  if (!found) throw notFound("Invitation");
  return found;
}

/** What the invitation page shows to whoever holds the link (no session needed; the token is the capability). */
export async function invitationByToken(token: string, now = new Date()) {
  const found = await findByToken(token);
  const account = await db().user.findUnique({ where: { email: found.email }, select: { id: true } });
  return { ...invitationView(found, now), tenant_name: found.tenant.name, account_exists: account !== null };
}

/** The count of password tries an account has (the panel's sign-in count, lib/panel/sign-in-attempts.ts). */
export type PasswordTries = { take(email: string): Promise<boolean>; succeeded(email: string): Promise<void> };
/** The account's password tries are used up for now: the same lock as its sign-in. */
export class TooManyPasswordTries extends Error {}

/**
 * Joins the invited person. An existing account proves itself with its password — a try counted against the
 * account's sign-in tries (`tries`): an owner inviting any address and guessing through the link gets no more
 * guesses than the sign-in form gives, and a lock there is a lock here.
 */
export async function acceptInvitation(
  token: string,
  input: AcceptInput,
  options: { now?: Date; tries?: PasswordTries } = {},
): Promise<{ tenantId: string; userId: string; email: string }> {
  const now = options.now ?? new Date();
  const found = await findByToken(token);
  const invitation = invitationView(found, now);
  if (invitation.status !== "open") throw new DomainError("conflict", `This invitation is ${invitation.status}: ask an owner for a new link`);
  const existing = await db().user.findUnique({ where: { email: invitation.email } });
  if (existing) {
    if (options.tries && !(await options.tries.take(existing.email))) throw new TooManyPasswordTries();
    if (!(await verifyPassword(existing.passwordHash, input.password))) throw invalidField("password", "Wrong password for this account");
    await options.tries?.succeeded(existing.email);
  } else {
    if (!input.name) throw invalidField("name", "Your name is required");
    if (input.password.length < 12) throw invalidField("password", "At least 12 characters");
  }
  const passwordHash = existing ? null : await hashPassword(input.password);
  return db().$transaction(async (tx) => {
    // Shares the lock a member's removal or role change takes (./members.ts): either that change committed first and
    // revoked this link (the claim below then fails), or this acceptance completes before the change begins.
    await tx.$queryRaw`SELECT id FROM tenants WHERE id = ${found.tenantId} FOR SHARE`;
    // Its sender must still be allowed to send it — besides the revocation at their removal or demotion, for a link
    // that escaped it. A link without a sender (an operator's, or a legacy row the migration found none for) is accepted
    // as before: nothing to check it against.
    if (found.invitedByUserId) {
      const sender = await tx.membership.findUnique({ where: { tenantId_userId: { tenantId: found.tenantId, userId: found.invitedByUserId } } });
      if (!sender || !mayInvite(sender.role)) {
        throw new DomainError("conflict", "The member who sent this invitation can no longer invite: ask an owner for a new link");
      }
    }
    // Claim the link: only one acceptance wins, and only while it is still open.
    const claimed = await tx.invitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now },
    });
    if (claimed.count !== 1) throw new DomainError("conflict", "This invitation is no longer open: ask an owner for a new link");
    await cancelPendingEmails(tx, { invitationId: invitation.id }, "the invitation was accepted before the e-mail was sent");
    const row = await tx.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    // The account checked above, still: one made meanwhile (another link, the CLI) was not proven by this password.
    const current = await tx.user.findUnique({ where: { email: row.email } });
    if ((current?.id ?? null) !== (existing?.id ?? null)) {
      throw new DomainError("conflict", "An account for this e-mail was just created: open the link again and use that account's password");
    }
    // Made here, its address is not proven: the inviter saw this link too (lib/tenants/tenants.ts).
    const user = current ?? (await tx.user.create({ data: { id: newId("user"), email: row.email, name: input.name!, passwordHash: passwordHash! } }));
    await tx.invitation.update({ where: { id: row.id }, data: { acceptedBy: user.id } });
    // Joined in the meantime by another path (the CLI): keep the role they have.
    await tx.membership.upsert({
      where: { tenantId_userId: { tenantId: row.tenantId, userId: user.id } },
      create: { tenantId: row.tenantId, userId: user.id, role: row.role },
      update: {},
    });
    await writeAudit(tx, {
      tenantId: row.tenantId,
      actor: { type: "user", id: user.id, label: user.email },
      action: "member.joined",
      target: { type: "user", id: user.id },
      metadata: { email: user.email, role: row.role, invitation_id: row.id },
    });
    return { tenantId: row.tenantId, userId: user.id, email: user.email };
  });
}

/** `emails`: the latest first (LATEST_EMAIL); none when the platform sent no e-mail for it. */
function invitationView(row: Invitation & { emails?: Pick<Email, "status">[] }, now: Date): InvitationView {
  const email = row.emails?.[0];
  const status: InvitationStatus = row.acceptedAt ? "accepted" : row.revokedAt ? "revoked" : row.expiresAt <= now ? "expired" : "open";
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status,
    invited_by: row.invitedBy,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    email_delivery: (email?.status as EmailDelivery | undefined) ?? null,
  };
}
