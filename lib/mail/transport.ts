import nodemailer, { type Transporter } from "nodemailer";
import SMTPTransport from "nodemailer/lib/smtp-transport";
import { getEnv } from "@/lib/env";

// The SMTP connection the mailer sends through (nodemailer), from SMTP_URL; null when e-mail is not configured.
// One connection per message (no pool): a worker sends a handful of e-mails a day, and a fresh connection never
// inherits a half-broken one. Timeouts bound every step, so one unresponsive server cannot hold a round.

let cached: { key: string; transport: Transporter<SMTPTransport.SentMessageInfo> } | undefined;

export function mailEnabled(): boolean {
  return getEnv().SMTP_URL !== undefined;
}

export function mailTransport(): Transporter<SMTPTransport.SentMessageInfo> | null {
  const { SMTP_URL, SMTP_TIMEOUT_MS } = getEnv();
  if (!SMTP_URL) return null;
  const key = `${SMTP_URL}|${SMTP_TIMEOUT_MS}`;
  if (cached?.key !== key) {
    const transport = new SMTPTransport({
      url: SMTP_URL,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
      dnsTimeout: SMTP_TIMEOUT_MS,
    });
    cached = { key, transport: nodemailer.createTransport(transport) };
  }
  return cached.transport;
}
