import { z } from "zod";
import { writeAudit } from "@/lib/audit/audit-log";
import { db, type Tx } from "@/lib/db/client";
import { DomainError, invalidField, notFound } from "@/lib/errors";
import { cancelPendingEmails } from "@/lib/mail/outbox";
import { hashPassword, verifyPassword } from "./passwords";

// An account's password: changed by its owner in the panel (knowing the current one), or set through a reset link
// (./password-reset.ts). Either way the account records when (`password_changed_at`): panel sessions signed in
// before then are no longer honoured (lib/panel/session.ts), and each tenant the account belongs to sees it in its
// audit log. A change also voids the account's open reset links: whoever held the mailbox a moment keeps no way in.

export const MIN_PASSWORD_LENGTH = 12;
export const newPasswordSchema = z.string().min(MIN_PASSWORD_LENGTH, `At least ${MIN_PASSWORD_LENGTH} characters`).max(200);

export const ChangePasswordInput = z.strictObject({ current_password: z.string().min(1).max(200), new_password: newPasswordSchema });
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

const wrongCurrentPassword = () => invalidField("current_password", "Wrong password");

/** Whether an error is changePassword's refusal of the current password (the caller counts it as a wrong sign-in). */
export function isWrongCurrentPassword(err: unknown): boolean {
  const errors = err instanceof DomainError ? (err.details?.errors as { param?: string }[] | undefined) : undefined;
  return errors?.[0]?.param === "current_password";
}

export async function changePassword(userId: string, input: ChangePasswordInput, now = new Date()): Promise<{ email: string }> {
  const user = await db().user.findUnique({ where: { id: userId } });
  if (!user) throw notFound("Account");
  if (!(await verifyPassword(user.passwordHash, input.current_password))) throw wrongCurrentPassword();
  if (input.new_password === input.current_password) throw invalidField("new_password", "Choose a password other than the current one");
  const passwordHash = await hashPassword(input.new_password);
  await db().$transaction(async (tx) => {
    // Links first, the account second: the order a reset takes its link and then the account (no deadlock between them).
    await voidOpenResetLinks(tx, user.id, now, "the account's password was changed");
    // Only over the hash just verified: a reset or an operator's replacement committed since then keeps the password it
    // set — else whoever knew the old password would undo the reset meant to shut them out.
    if (!(await recordNewPassword(tx, user, passwordHash, now, "user.password_changed", user.passwordHash))) {
      throw new DomainError("conflict", "Your password changed meanwhile (a reset link or an operator): sign in with the new one");
    }
  });
  return { email: user.email };
}

/**
 * Stores a new password hash and its time, audited in each of the account's tenants; in the caller's transaction.
 * With `replacing`, only while the stored hash is still that one (else nothing is written and the answer is false);
 * without it — a reset link, which proves the mailbox — whatever was there.
 */
export async function recordNewPassword(
  tx: Tx,
  user: { id: string; email: string },
  passwordHash: string,
  now: Date,
  action: "user.password_changed" | "user.password_reset",
  replacing?: string,
): Promise<boolean> {
  const where = replacing === undefined ? { id: user.id } : { id: user.id, passwordHash: replacing };
  const written = await tx.user.updateMany({ where, data: { passwordHash, passwordChangedAt: now } });
  if (written.count !== 1) return false;
  const memberships = await tx.membership.findMany({ where: { userId: user.id }, select: { tenantId: true } });
  for (const { tenantId } of memberships) {
    await writeAudit(tx, { tenantId, actor: { type: "user", id: user.id, label: user.email }, action, target: { type: "user", id: user.id }, metadata: { email: user.email } });
  }
  return true;
}

/** Ends the account's open reset links (./password-reset.ts) and cancels their e-mails not yet sent, in the caller's
 *  transaction: a newer link replaces them, and a password change voids them. Voided is a mark of its own (`voidedAt`),
 *  which the claim refuses: a time would not do — a reset takes its time before its slow hash, so a change committed
 *  meanwhile is later than it, and so is any expiry (even the link's own) set at the change. Every unused link is
 *  marked, even one past its expiry: a reset that began before it expired would still pass its own, earlier time. */
export async function voidOpenResetLinks(tx: Tx, userId: string, now: Date, reason: string): Promise<void> {
  const open = { userId, usedAt: null };
  // The ones still open also end now by their expiry: what the outbox's worker and readers of expiresAt go by.
  await tx.passwordReset.updateMany({ where: { ...open, voidedAt: null, expiresAt: { gt: now } }, data: { expiresAt: now } });
  await tx.passwordReset.updateMany({ where: { ...open, voidedAt: null }, data: { voidedAt: now } });
  await cancelPendingEmails(tx, { passwordReset: open }, reason);
}
