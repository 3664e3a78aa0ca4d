import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { expect } from "@playwright/test";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { E2E_SMTP_PORT } from "../playwright.config";

// The e-mails the panel's server writes (its SMTP_URL points at E2E_SMTP_PORT, playwright.config.ts) wait in the
// database until a worker sends them: this starts a catch-all SMTP server there and `npm run worker`'s script, then
// waits for the e-mail to one address and stops both.
export async function receiveMail(to: string): Promise<ParsedMail> {
  const inbox: ParsedMail[] = [];
  const smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onData: (stream, _session, done) => void simpleParser(stream).then((mail) => (inbox.push(mail), done()), done),
  });
  await new Promise<void>((resolve) => smtp.listen(E2E_SMTP_PORT, "127.0.0.1", resolve));
  let worker: ChildProcess | null = null;
  const addressedTo = () => inbox.find((m) => m.to && !Array.isArray(m.to) && m.to.text === to);
  try {
    worker = spawn(path.resolve("node_modules/.bin/tsx"), ["scripts/worker.ts"], {
      env: { ...process.env, AUTH_JWT_SECRET: "e2e-jwt-secret-0123456789abcdef0123456789abcdef", SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`, MAIL_FROM: "Credit Platform e2e <invites@e2e.test>", LOG_LEVEL: "warn" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await expect.poll(() => addressedTo()?.subject ?? null, { timeout: 60_000 }).not.toBeNull();
    return addressedTo()!;
  } finally {
    worker?.kill("SIGTERM");
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}
