import type { Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { execute, queryRows, sql } from "@/lib/db/sql";
import { getEnv } from "@/lib/env";
import { runPollLoop } from "@/lib/jobs/poll-loop";
import { log } from "@/lib/log";
import { openSecret } from "@/lib/security/secret-box";
import { sealedBodyContext } from "./outbox";
import { mailTransport } from "./transport";

// The mailer: sends the e-mails written by ./outbox.ts (invitation and password reset links), from the worker process
// (`npm run worker`, and the one `npm run dev` starts), the same way webhook deliveries are sent:
// 1. claim: due pending e-mails, FOR UPDATE SKIP LOCKED, each given a lease and its attempt number in the same
//    statement — any number of workers share the work and never hold the same attempt;
// 2. send them one after another over SMTP, with the e-mail's id as its Message-ID — each only once its lease has been
//    renewed, which holds only while the claim is still ours (same attempt, still pending, lease not lapsed): an e-mail
//    late in a slow batch whose lease lapsed meanwhile may have been claimed and sent by another worker, and is
//    skipped; a worker told to stop sends no further e-mail and gives the rest of its batch back;
// 3. record, only while the claim is still ours: sent (body erased), retry later, or failed (body erased).
// At least once: a worker that dies between the server's "250 OK" and the record sends the e-mail again once
// its lease lapses, with the same Message-ID (which mail clients use to fold duplicates).
// A server that refuses the recipient or the message for good (5xx) fails the e-mail at once; anything else
// (connection, timeout, 4xx, authentication, which a configuration fix mends) is retried after 30 s, 2 min,
// 10 min, 30 min, 1 h, 2 h and 4 h, then the e-mail fails. The panel shows the state next to the invitation;
// a failed invitation e-mail leaves the link to be sent by hand (the owner saw it when inviting).
// The log names e-mails by id, never by address: an SMTP server's reply usually quotes the recipient, so every
// address in it is masked before it is logged (the row keeps the reply as it came, next to its own address).

export const MAX_EMAIL_ATTEMPTS = 8;
const RETRY_AFTER_S = [30, 120, 600, 1800, 3600, 7200, 14_400];
const BATCH = 20;

type Claimed = { id: string; to_address: string; subject: string; sealed_body: string | null; attempts: number };
export type MailOutcome = { sent: true; messageId: string } | { sent: false; permanent: boolean; error: string };

/** Claims up to `limit` due e-mails for one attempt each (e-mails whose link expired meanwhile are canceled first). */
export async function claimEmails(limit = BATCH): Promise<Claimed[]> {
  await execute(sql`
    UPDATE emails e SET status = 'canceled', sealed_body = NULL, locked_until = NULL, updated_at = now(),
           last_error = CASE WHEN e.invitation_id IS NOT NULL THEN 'the invitation expired before the e-mail was sent'
                             ELSE 'the reset link expired before the e-mail was sent' END
    WHERE e.status = 'pending'
      AND (EXISTS (SELECT 1 FROM invitations i WHERE i.id = e.invitation_id AND i.expires_at <= now())
        OR EXISTS (SELECT 1 FROM password_resets r WHERE r.id = e.password_reset_id AND r.expires_at <= now()))`);
  return queryRows<Claimed>(sql`
    WITH due AS (
      SELECT id FROM emails
      WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
      ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    UPDATE emails e SET attempts = e.attempts + 1, locked_until = now() + make_interval(secs => ${leaseSeconds()}), updated_at = now()
    FROM due WHERE e.id = due.id
    RETURNING e.id, e.to_address, e.subject, e.sealed_body, e.attempts`);
}

/**
 * Renews a claimed e-mail's lease just before it is sent, only while the claim is still ours: the same attempt, still
 * pending. Another worker's claim (possible once the lease lapsed) adds an attempt, so it no longer matches — and the
 * two updates are ordered by the row's lock, so only one of them sends it. A lapsed lease nobody took over is still
 * ours: renewed and sent, not skipped (a skip spent an attempt on a send never made: a slow batch drove e-mails to
 * `failed` on their first real try). false: not ours any more — do not send it.
 */
export async function renewLease(email: Pick<Claimed, "id" | "attempts">): Promise<boolean> {
  const renewed = await queryRows<{ id: string }>(sql`
    UPDATE emails SET locked_until = now() + make_interval(secs => ${leaseSeconds()}), updated_at = now()
    WHERE id = ${email.id} AND attempts = ${email.attempts} AND status = 'pending'
    RETURNING id`);
  return renewed.length === 1;
}

/** Gives back claimed e-mails that were not attempted (the worker is stopping): their attempt is undone and their lease
 * cleared, so that the next worker sends them at once — only those still ours. */
async function releaseClaims(emails: Claimed[]): Promise<void> {
  for (const email of emails) {
    await execute(sql`
      UPDATE emails SET attempts = attempts - 1, locked_until = NULL, updated_at = now()
      WHERE id = ${email.id} AND attempts = ${email.attempts} AND status = 'pending'`);
  }
}

/** Long enough for a whole SMTP conversation (connect, greet, authenticate, envelope, data) at the configured timeout. */
function leaseSeconds(): number {
  return Math.ceil((6 * getEnv().SMTP_TIMEOUT_MS) / 1000) + 10;
}

export async function sendEmail(email: Claimed, transport: Transporter<SMTPTransport.SentMessageInfo>): Promise<MailOutcome> {
  let body: { text: string; html: string };
  try {
    if (email.sealed_body === null) throw new Error("no body");
    body = JSON.parse(openSecret(email.sealed_body, sealedBodyContext(email.id))) as { text: string; html: string };
  } catch {
    return { sent: false, permanent: true, error: "the sealed body cannot be opened (was WEBHOOK_SECRETS_KEY changed?)" };
  }
  const from = getEnv().MAIL_FROM;
  try {
    const info = await transport.sendMail({
      from,
      to: email.to_address,
      subject: email.subject,
      text: body.text,
      html: body.html,
      messageId: `<${email.id}@${senderDomain(from)}>`,
    });
    return { sent: true, messageId: info.messageId };
  } catch (err) {
    const e = err as { code?: string; responseCode?: number; message?: string };
    const permanent = (e.code === "EENVELOPE" || e.code === "EMESSAGE") && typeof e.responseCode === "number" && e.responseCode >= 500;
    return { sent: false, permanent, error: String(e.message ?? err).slice(0, 500) };
  }
}

export async function recordOutcome(email: Claimed, outcome: MailOutcome): Promise<void> {
  // Every update holds only while the claim is ours: same attempt, still pending (not canceled meanwhile).
  if (outcome.sent) {
    await execute(sql`
      UPDATE emails SET status = 'sent', sealed_body = NULL, locked_until = NULL, last_error = NULL,
             message_id = ${outcome.messageId}, sent_at = now(), updated_at = now()
      WHERE id = ${email.id} AND attempts = ${email.attempts} AND status = 'pending'`);
    log().info({ email_id: email.id, attempts: email.attempts }, "e-mail sent");
    return;
  }
  if (outcome.permanent || email.attempts >= MAX_EMAIL_ATTEMPTS) {
    await execute(sql`
      UPDATE emails SET status = 'failed', sealed_body = NULL, locked_until = NULL, last_error = ${outcome.error}, updated_at = now()
      WHERE id = ${email.id} AND attempts = ${email.attempts} AND status = 'pending'`);
    log().warn({ email_id: email.id, attempts: email.attempts, err: maskEmailAddresses(outcome.error) }, "e-mail failed for good");
    return;
  }
  const delay = RETRY_AFTER_S[Math.min(email.attempts, RETRY_AFTER_S.length) - 1]!;
  await execute(sql`
    UPDATE emails SET locked_until = NULL, last_error = ${outcome.error}, next_attempt_at = now() + make_interval(secs => ${delay}), updated_at = now()
    WHERE id = ${email.id} AND attempts = ${email.attempts} AND status = 'pending'`);
  log().warn({ email_id: email.id, attempts: email.attempts, retry_in_s: delay, err: maskEmailAddresses(outcome.error) }, "e-mail not sent; will retry");
}

/**
 * One round: claims due e-mails and sends them one after another, each after renewing its lease (skipped when the
 * claim is no longer ours). Once `signal` aborts, no further e-mail is sent: the rest of the batch is given back.
 * Returns how many it claimed.
 */
export async function runMailerOnce(transport = mailTransport(), signal?: AbortSignal): Promise<number> {
  if (!transport) return 0;
  const claimed = await claimEmails();
  for (const [i, email] of claimed.entries()) {
    if (signal?.aborted) {
      await releaseClaims(claimed.slice(i));
      break;
    }
    if (!(await renewLease(email))) {
      log().info({ email_id: email.id, attempts: email.attempts }, "e-mail skipped: its lease lapsed before its turn (another worker may have taken it)");
      continue;
    }
    await recordOutcome(email, await sendEmail(email, transport));
  }
  return claimed.length;
}

/** Sends e-mails until `signal` aborts; returns at once when SMTP_URL is not set (the platform sends no e-mail). */
export async function runMailer(signal: AbortSignal, options: { idleMs?: number } = {}): Promise<void> {
  const transport = mailTransport();
  if (!transport) {
    log().info("e-mail is not configured (SMTP_URL): invitation links are shown in the panel only, reset links come from the CLI");
    return;
  }
  await runPollLoop(signal, {
    name: "mailer",
    waiting: "e-mails wait",
    idleMs: options.idleMs ?? 1000,
    round: async () => (await runMailerOnce(transport, signal)) > 0,
  });
}

// An address in angle brackets (<joana@example.com>, as SMTP replies quote the recipient) or bare, its local part
// quoted ("joana pereira"@example.com) or not.
const BRACKETED_ADDRESS = /<[^<>]*@[^<>]*>/g;
const BARE_ADDRESS = /(?:"[^"\n]*"|[^\s<>()[\]{}"'`,;:@]+)@[^\s<>()[\]{}"'`,;:@]+/g;

/** `text` with every e-mail address in it masked (an SMTP reply, before it is logged). */
export function maskEmailAddresses(text: string): string {
  return text.replace(BRACKETED_ADDRESS, "<…@…>").replace(BARE_ADDRESS, "…@…");
}

function senderDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.split("@")[1]?.trim() || "credit-platform.local";
}
