import nodemailer, { type Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { getEnv } from "@/lib/env";

// The SMTP connection the mailer sends through (nodemailer), from SMTP_URL; null when e-mail is not configured.
// One connection per message (no pool): a worker sends a handful of e-mails a day, and a fresh connection never
// inherits a half-broken one. Timeouts bound every step, so one unresponsive server cannot hold a round: they go
// into the URL's query (nodemailer's own URL options, e.g. `?tls.rejectUnauthorized=false`, keep working, and a
// timeout given there wins).

const TIMEOUTS = ["connectionTimeout", "greetingTimeout", "socketTimeout", "dnsTimeout"] as const;

let cached: { key: string; transport: Transporter<SMTPTransport.SentMessageInfo> } | undefined;

export function mailEnabled(): boolean {
  return getEnv().SMTP_URL !== undefined;
}

export function mailTransport(): Transporter<SMTPTransport.SentMessageInfo> | null {
  const { SMTP_URL, SMTP_TIMEOUT_MS } = getEnv();
  if (!SMTP_URL) return null;
  const key = `${SMTP_URL}|${SMTP_TIMEOUT_MS}`;
  if (cached?.key !== key) {
    const url = new URL(SMTP_URL);
    for (const name of TIMEOUTS) if (!url.searchParams.has(name)) url.searchParams.set(name, String(SMTP_TIMEOUT_MS));
    cached = { key, transport: nodemailer.createTransport(url.toString()) as Transporter<SMTPTransport.SentMessageInfo> };
  }
  return cached.transport;
}
