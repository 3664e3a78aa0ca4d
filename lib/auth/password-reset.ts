import { z } from "zod";
import type { Locale } from "@/i18n/locales";
import { db } from "@/lib/db/client";
import { DomainError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { cancelPendingEmails, enqueueEmail } from "@/lib/mail/outbox";
import { passwordResetEmail } from "@/lib/mail/password-reset-email";
import { mailEnabled } from "@/lib/mail/transport";
import { newPasswordSchema, recordNewPassword, voidOpenResetLinks } from "./account-password";
import { hashPassword } from "./passwords";
import { randomSecret, sha256Hex } from "./secrets";

// "Forgot your password?" for the panel. Asking for a link (by e-mail address) answers the same whether or not an
// account exists; for an account, a reset link is made — its token shown nowhere but in the e-mail (only its
// SHA-256 is stored) — and e-mailed by the worker (lib/mail). A link works once, for PASSWORD_RESET_TTL_MINUTES,
// and asking again voids the earlier link. Choosing the new password (12+ characters) records when the password
// changed: panel sessions issued before then are no longer honoured (lib/panel/session.ts), so a stolen session ends
// with the reset. Operators without e-mail print a link with `npm run tenants -- reset-password`.

export const PASSWORD_RESET_TTL_MINUTES = 60;
const TOKEN_PREFIX = "cppwr_";

export const ForgotPasswordInput = z.strictObject({ email: z.email("a valid e-mail address").trim().toLowerCase().max(254) });
export const ResetPasswordInput = z.strictObject({ password: newPasswordSchema });

export type ResetMail = { linkBase: string; locale: Locale };

export function passwordResetUrl(base: string, token: string): string {
  return `${base.replace(/\/$/, "")}/reset-password/${token}`;
}

/**
 * Makes a reset link for the account of `email`, if there is one (else null, and nothing happens), voiding earlier
 * ones. With `mail` and e-mail configured, the link is e-mailed; the token is returned for the operator's CLI only.
 */
export async function requestPasswordReset(email: string, mail: ResetMail | null, now = new Date()): Promise<{ token: string; expiresAt: Date } | null> {
  const user = await db().user.findUnique({ where: { email } });
  if (!user) return null;
  const token = randomSecret(TOKEN_PREFIX);
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MINUTES * 60_000);
  await db().$transaction(async (tx) => {
    // Earlier links stop working, and their e-mails, if still unsent, are not sent.
    await voidOpenResetLinks(tx, user.id, now, "a newer reset link replaced this one");
    const reset = await tx.passwordReset.create({ data: { id: newId("passwordReset"), userId: user.id, tokenHash: sha256Hex(token), createdAt: now, expiresAt } });
    if (mail && mailEnabled()) {
      const content = passwordResetEmail({ locale: mail.locale, email: user.email, url: passwordResetUrl(mail.linkBase, token), expiresAt });
      await enqueueEmail(tx, { tenantId: null, passwordResetId: reset.id, to: user.email, content });
    }
  });
  return { token, expiresAt };
}

export type ResetLinkStatus = "open" | "used" | "expired";

async function findByToken(token: string) {
  const found = token.startsWith(TOKEN_PREFIX) && token.length <= 100 ? await db().passwordReset.findUnique({ where: { tokenHash: sha256Hex(token) }, include: { user: true } }) : null;
  if (!found) throw notFound("Reset link");
  return found;
}

/** What the reset page shows to whoever holds the link. */
export async function passwordResetByToken(token: string, now = new Date()): Promise<{ email: string; status: ResetLinkStatus }> {
  const found = await findByToken(token);
  return { email: found.user.email, status: found.usedAt ? "used" : found.voidedAt || found.expiresAt <= now ? "expired" : "open" };
}

/**
 * Sets the new password through a link: once, before it expires, unless voided (a newer link, a password change) —
 * checked when the link is claimed, after the hash, so a void committed during the hash wins. Returns the account's
 * e-mail (to sign in with).
 */
export async function resetPassword(token: string, input: { password: string }, now = new Date()): Promise<{ userId: string; email: string }> {
  const found = await findByToken(token);
  const passwordHash = await hashPassword(input.password);
  return db().$transaction(async (tx) => {
    const claimed = await tx.passwordReset.updateMany({ where: { id: found.id, usedAt: null, voidedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
    if (claimed.count !== 1) throw new DomainError("conflict", "This link was already used or has expired: ask for a new one");
    await recordNewPassword(tx, found.user, passwordHash, now, "user.password_reset");
    // The link reached its holder through the inbox (or an operator): the address is proven.
    await tx.user.updateMany({ where: { id: found.userId, emailVerifiedAt: null }, data: { emailVerifiedAt: now } });
    await cancelPendingEmails(tx, { passwordResetId: found.id }, "the link was used before the e-mail was sent");
    return { userId: found.userId, email: found.user.email };
  });
}
