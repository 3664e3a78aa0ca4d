import { z } from "zod";
import { writeAudit } from "@/lib/audit/audit-log";
import { db, type Tx } from "@/lib/db/client";
import { DomainError, invalidField, notFound } from "@/lib/errors";
import { hashPassword, verifyPassword } from "./passwords";

// An account's password: changed by its owner in the panel (knowing the current one), or set through a reset link
// (./password-reset.ts). Either way the account records when (`password_changed_at`): panel sessions signed in
// before then are no longer honoured (lib/panel/session.ts), and each tenant the account belongs to sees it in its
// audit log.

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
  await db().$transaction((tx) => recordNewPassword(tx, user, passwordHash, now, "user.password_changed"));
  return { email: user.email };
}

/** Stores a new password hash and its time, audited in each of the account's tenants. In the caller's transaction. */
export async function recordNewPassword(
  tx: Tx,
  user: { id: string; email: string },
  passwordHash: string,
  now: Date,
  action: "user.password_changed" | "user.password_reset",
): Promise<void> {
  await tx.user.update({ where: { id: user.id }, data: { passwordHash, passwordChangedAt: now } });
  const memberships = await tx.membership.findMany({ where: { userId: user.id }, select: { tenantId: true } });
  for (const { tenantId } of memberships) {
    await writeAudit(tx, { tenantId, actor: { type: "user", id: user.id, label: user.email }, action, target: { type: "user", id: user.id }, metadata: { email: user.email } });
  }
}
