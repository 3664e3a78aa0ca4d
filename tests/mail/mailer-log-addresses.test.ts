import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { captureLogsForTests } from "@/lib/log";
import { maskEmailAddresses, runMailerOnce } from "@/lib/mail/mailer";
import { createInvitation } from "@/lib/tenants/invitations";
import { newTenant } from "../helpers/factory";

// The mailer's log names an e-mail by its id, never by its address: SMTP servers quote the recipient in their
// refusals (Postfix: "5.1.1 <joana@…>: Recipient address rejected: …"), and that reply is what the mailer logs as the
// error — with every address in it masked. A real SMTP server on loopback refuses the recipient for good (5xx) or for
// now (4xx).

let refusal = { code: 550, message: (address: string) => `5.1.1 <${address}>: Recipient address rejected: User unknown in virtual mailbox table` };
const server = new SMTPServer({
  disabledCommands: ["STARTTLS"],
  authOptional: true,
  logger: false,
  onRcptTo(address, _session, callback) {
    callback(Object.assign(new Error(refusal.message(address.address)), { responseCode: refusal.code }));
  },
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // Before anything reads the configuration (lib/env.ts caches it per test file).
  process.env.SMTP_URL = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  process.env.SMTP_TIMEOUT_MS = "2000";
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(async () => {
  // Other files' e-mails must not be claimed here.
  await db().email.updateMany({ where: { status: "pending" }, data: { status: "canceled", sealedBody: null } });
});

async function invite(local: string) {
  const { tenant, ownerUserId } = await newTenant();
  const address = `${local}@${tenant.slug}.test`;
  const { invitation } = await createInvitation(
    tenant.id,
    { type: "user", id: ownerUserId, label: "Owner" },
    { email: address, role: "viewer" },
    { mail: { linkBase: "https://painel.example", locale: "pt-BR" } },
  );
  const email = await db().email.findFirstOrThrow({ where: { invitationId: invitation.id } });
  return { address, emailId: email.id };
}

async function logsOfOneRound(): Promise<string> {
  const lines: string[] = [];
  captureLogsForTests((line) => lines.push(line), "info");
  expect(await runMailerOnce()).toBe(1);
  return lines.join("");
}

describe("the mailer's log", () => {
  it("masks the recipient's address quoted in a refusal for good (5xx), and names the e-mail by id", async () => {
    refusal = { code: 550, message: (address) => `5.1.1 <${address}>: Recipient address rejected: User unknown in virtual mailbox table` };
    const { address, emailId } = await invite("joana.pereira");
    const logged = await logsOfOneRound();
    expect(logged).toContain("e-mail failed for good");
    expect(logged).toContain(emailId);
    expect(logged).toContain("<…@…>: Recipient address rejected");
    expect(logged).not.toContain(address);
    expect(logged).not.toContain("joana.pereira");
    expect(await db().email.findUniqueOrThrow({ where: { id: emailId } })).toMatchObject({ status: "failed" });
  });

  it("masks a bare address in a refusal for now (4xx)", async () => {
    refusal = { code: 450, message: (address) => `4.2.1 Mailbox ${address} is temporarily over quota, try again later` };
    const { address, emailId } = await invite("rafael.souza");
    const logged = await logsOfOneRound();
    expect(logged).toContain("e-mail not sent; will retry");
    expect(logged).toContain(emailId);
    expect(logged).toContain("Mailbox …@… is temporarily over quota");
    expect(logged).not.toContain(address);
    expect(logged).not.toContain("rafael.souza");
  });

  it("maskEmailAddresses: bracketed and bare addresses, nothing else", () => {
    expect(maskEmailAddresses("550 5.1.1 <ana+x@mail.example.com>: Recipient address rejected")).toBe("550 5.1.1 <…@…>: Recipient address rejected");
    expect(maskEmailAddresses("mailbox ana.souza@example.com.br unavailable; see bob@example.org.")).toBe("mailbox …@… unavailable; see …@…");
    expect(maskEmailAddresses('RCPT TO:<"ana souza"@example.com> refused')).toBe("RCPT TO:<…@…> refused");
    expect(maskEmailAddresses('"ana souza"@example.com: no such user')).toBe("…@…: no such user");
    expect(maskEmailAddresses("Connection timeout to 10.0.0.1:587 (ETIMEDOUT)")).toBe("Connection timeout to 10.0.0.1:587 (ETIMEDOUT)");
  });
});
