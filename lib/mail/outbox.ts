import type { Prisma } from "@prisma/client";
import { newId } from "@/lib/ids";
import { sealSecret } from "@/lib/security/secret-box";
import type { RenderedEmail } from "./layout";

// Writing e-mails to send, inside the caller's transaction (like outbox events): the e-mail exists if and only if
// what it announces was committed, and the worker sends it afterwards (./mailer.ts). Its body is sealed: it holds
// a link (an invitation, a password reset) that the database otherwise keeps only as a hash.

type Tx = Prisma.TransactionClient;

/** The associated data of an e-mail's sealed body: a body copied onto another row does not open. */
export const sealedBodyContext = (emailId: string) => `email:${emailId}`;

export async function enqueueEmail(
  tx: Tx,
  email: { tenantId: string | null; invitationId?: string; passwordResetId?: string; to: string; content: RenderedEmail },
): Promise<string> {
  const id = newId("email");
  const body = JSON.stringify({ text: email.content.text, html: email.content.html });
  await tx.email.create({
    data: {
      id,
      tenantId: email.tenantId,
      invitationId: email.invitationId ?? null,
      passwordResetId: email.passwordResetId ?? null,
      toAddress: email.to,
      subject: email.content.subject,
      sealedBody: sealSecret(body, sealedBodyContext(id)),
    },
  });
  return id;
}

/** Unsent e-mails whose link no longer works (an invitation revoked, replaced or accepted; a reset link replaced or
 *  used, or voided by a password change): not sent any more, their bodies erased, the reason kept. */
export async function cancelPendingEmails(tx: Tx, about: Prisma.EmailWhereInput, reason: string): Promise<void> {
  await tx.email.updateMany({
    where: { ...about, status: "pending" },
    data: { status: "canceled", sealedBody: null, lockedUntil: null, lastError: reason },
  });
}
