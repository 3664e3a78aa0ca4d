import { expect, it } from "vitest";

// SMTP_URL → nodemailer's options: the URL's own (credentials with reserved characters, TLS options) stay, and the
// configured timeout bounds every step unless the URL sets its own.
it("reads SMTP_URL whole and adds SMTP_TIMEOUT_MS to every step the URL leaves unset", async () => {
  process.env.DATABASE_URL ??= "postgresql://unused@localhost/unused"; // read by the configuration, never connected to
  process.env.SMTP_URL = "smtps://mailer%40acme.com.br:p%3As%2Fs@smtp.acme.com.br:465?tls.rejectUnauthorized=false&socketTimeout=60000";
  process.env.SMTP_TIMEOUT_MS = "7000";
  const { mailTransport, mailEnabled } = await import("./transport");
  expect(mailEnabled()).toBe(true);
  const options = (mailTransport()!.transporter as unknown as { options: Record<string, unknown> }).options;
  expect(options).toMatchObject({
    secure: true,
    host: "smtp.acme.com.br",
    port: 465,
    auth: { user: "mailer@acme.com.br", pass: "p:s/s" },
    tls: { rejectUnauthorized: false },
    connectionTimeout: 7000,
    greetingTimeout: 7000,
    dnsTimeout: 7000,
    socketTimeout: 60000,
  });
});
