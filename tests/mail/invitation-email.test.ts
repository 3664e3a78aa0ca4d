import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { claimEmails, MAX_EMAIL_ATTEMPTS, runMailerOnce } from "@/lib/mail/mailer";
import { acceptInvitation, createInvitation, listOpenInvitations, revokeInvitation } from "@/lib/tenants/invitations";
import { newTenant } from "../helpers/factory";

// Invitation e-mails end to end on the real database and a real SMTP server on loopback (smtp-server, with
// authentication): the e-mail is written with the invitation, sealed, sent by the mailer with the link that then
// works, erased once sent; a 4xx is retried, a 5xx fails at once, an unreachable server is retried, a revoked
// invitation's e-mail is never sent, two mailers send it once.

type Received = { from: string; to: string[]; mail: ParsedMail };
const received: Received[] = [];
let refuse: { code: number; message: string } | null = null;

const server = new SMTPServer({
  disabledCommands: ["STARTTLS"],
  authMethods: ["PLAIN", "LOGIN"],
  onAuth(auth, _session, callback) {
    if (auth.username === "mailer" && auth.password === "s3cret") callback(null, { user: "mailer" });
    else callback(new Error("Invalid username or password"));
  },
  onRcptTo(_address, _session, callback) {
    if (!refuse) return callback();
    const err = Object.assign(new Error(refuse.message), { responseCode: refuse.code });
    callback(err);
  },
  onData(stream, session, callback) {
    simpleParser(stream).then(
      (mail) => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), mail });
        callback();
      },
      (err: Error) => callback(err),
    );
  },
  logger: false,
});

let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as AddressInfo).port;
  // Before anything reads the configuration (lib/env.ts caches it per test file).
  process.env.SMTP_URL = `smtp://mailer:s3cret@127.0.0.1:${port}`;
  process.env.MAIL_FROM = "Crédito Fácil <convites@credito-facil.example>";
  process.env.SMTP_TIMEOUT_MS = "2000";
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(async () => {
  received.length = 0;
  refuse = null;
  // Other files' e-mails (none are sent without SMTP_URL) and earlier tests' must not be claimed here.
  await db().email.updateMany({ where: { status: "pending" }, data: { status: "canceled", sealedBody: null } });
});

const owner = (userId: string) => ({ type: "user" as const, id: userId, label: "Ana Souza" });
const mail = { linkBase: "https://painel.credito-facil.example", locale: "pt-BR" as const };
const due = (id: string) => db().email.update({ where: { id }, data: { nextAttemptAt: new Date(Date.now() - 1000) } });

describe("invitation e-mails", () => {
  it("are written with the invitation, sealed, sent with a link that works, and erased once sent", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const address = `nova.pessoa@${tenant.slug}.test`;
    const { invitation, token } = await createInvitation(tenant.id, owner(ownerUserId), { email: address, role: "support" }, { mail });
    expect(invitation.email_delivery).toBe("pending");
    const row = await db().email.findFirstOrThrow({ where: { invitationId: invitation.id } });
    expect(row).toMatchObject({ tenantId: tenant.id, toAddress: address, status: "pending", attempts: 0, subject: `Convite para ${tenant.name} na Credit Platform` });
    expect(row.sealedBody).toMatch(/^v1\./);
    expect(row.sealedBody).not.toContain(token);

    expect(await runMailerOnce()).toBe(1);
    expect(received).toHaveLength(1);
    const [got] = received;
    expect(got!.from).toBe("convites@credito-facil.example");
    expect(got!.to).toEqual([address]);
    expect(got!.mail.subject).toBe(`Convite para ${tenant.name} na Credit Platform`);
    expect(got!.mail.from?.text).toBe('"Crédito Fácil" <convites@credito-facil.example>');
    expect(got!.mail.messageId).toBe(`<${row.id}@credito-facil.example>`);
    const link = `https://painel.credito-facil.example/invitations/${token}`;
    expect(got!.mail.text).toContain(`Ana Souza convidou você para entrar em ${tenant.name} na Credit Platform como suporte.`);
    expect(got!.mail.text).toContain(`Aceitar o convite: ${link}`);
    expect(got!.mail.html).toContain(`href="${link}"`);

    const sent = await db().email.findUniqueOrThrow({ where: { id: row.id } });
    expect(sent).toMatchObject({ status: "sent", attempts: 1, sealedBody: null, lastError: null, lockedUntil: null, messageId: `<${row.id}@credito-facil.example>` });
    expect(sent.sentAt).toBeInstanceOf(Date);
    expect((await listOpenInvitations(tenant.id)).map((i) => [i.email, i.email_delivery])).toEqual([[address, "sent"]]);
    // Unanswered, it lapses after 7 days and is listed as expired for 30 more, then no longer.
    const daysLater = (days: number) => new Date(Date.now() + days * 86_400_000);
    expect((await listOpenInvitations(tenant.id, daysLater(8))).map((i) => [i.email, i.status])).toEqual([[address, "expired"]]);
    expect(await listOpenInvitations(tenant.id, daysLater(38))).toEqual([]);
    expect(await runMailerOnce()).toBe(0); // nothing sent twice

    // The link from the e-mail is the invitation's.
    const fromMail = /\/invitations\/(cpinv_[A-Za-z0-9_-]+)/.exec(got!.mail.text ?? "")![1]!;
    await acceptInvitation(fromMail, { name: "Nova Pessoa", password: "correct horse battery" });
    expect(await db().membership.count({ where: { tenantId: tenant.id } })).toBe(2);
  });

  it("in English for an English-speaking inviter, with the tenant's name escaped in the HTML", async () => {
    const { tenant, ownerUserId } = await newTenant();
    await db().tenant.update({ where: { id: tenant.id }, data: { name: "Crédito <b>&</b> Cia" } });
    const address = `person@${tenant.slug}.test`;
    await createInvitation(tenant.id, owner(ownerUserId), { email: address, role: "viewer" }, { mail: { ...mail, locale: "en" } });
    await runMailerOnce();
    expect(received[0]!.mail.subject).toBe("Invitation to Crédito <b>&</b> Cia on Credit Platform");
    expect(received[0]!.mail.text).toContain("Ana Souza invited you to join Crédito <b>&</b> Cia on Credit Platform as viewer.");
    expect(received[0]!.mail.html).toContain("Crédito &lt;b&gt;&amp;&lt;/b&gt; Cia");
    expect(received[0]!.mail.html).not.toContain("<b>&</b>");
  });

  it("a temporary refusal (4xx) is retried later; a permanent one (5xx) fails at once and erases the body", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const { invitation } = await createInvitation(tenant.id, owner(ownerUserId), { email: `later@${tenant.slug}.test`, role: "viewer" }, { mail });
    refuse = { code: 451, message: "Mailbox busy, try again" };
    const before = Date.now();
    expect(await runMailerOnce()).toBe(1);
    const retried = await db().email.findFirstOrThrow({ where: { invitationId: invitation.id } });
    expect(retried).toMatchObject({ status: "pending", attempts: 1, lockedUntil: null });
    expect(retried.lastError).toContain("451");
    expect(retried.sealedBody).not.toBeNull();
    expect(retried.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 29_000);
    expect(await runMailerOnce()).toBe(0); // not due yet

    refuse = null;
    await due(retried.id);
    expect(await runMailerOnce()).toBe(1);
    expect(await db().email.findUniqueOrThrow({ where: { id: retried.id } })).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(received).toHaveLength(1);

    const other = await createInvitation(tenant.id, owner(ownerUserId), { email: `nobody@${tenant.slug}.test`, role: "viewer" }, { mail });
    refuse = { code: 550, message: "No such user here" };
    await runMailerOnce();
    const failed = await db().email.findFirstOrThrow({ where: { invitationId: other.invitation.id } });
    expect(failed).toMatchObject({ status: "failed", attempts: 1, sealedBody: null });
    expect(failed.lastError).toContain("550");
    expect((await listOpenInvitations(tenant.id)).find((i) => i.id === other.invitation.id)?.email_delivery).toBe("failed");
  });

  it("an unreachable server is retried, and after the last attempt the e-mail fails", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const { invitation } = await createInvitation(tenant.id, owner(ownerUserId), { email: `x@${tenant.slug}.test`, role: "viewer" }, { mail });
    const row = await db().email.findFirstOrThrow({ where: { invitationId: invitation.id } });
    // A port nothing listens on (an SMTP server's, closed again).
    const closed = new SMTPServer({ disabledCommands: ["STARTTLS"], authOptional: true, logger: false });
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadPort = (closed.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const dead = nodemailer.createTransport({ host: "127.0.0.1", port: deadPort, secure: false, connectionTimeout: 1000 });
    expect(await runMailerOnce(dead)).toBe(1);
    const retried = await db().email.findUniqueOrThrow({ where: { id: row.id } });
    expect(retried).toMatchObject({ status: "pending", attempts: 1, lockedUntil: null });
    expect(retried.lastError).toContain("ECONNREFUSED");
    // The last attempt that fails ends it.
    await db().email.update({ where: { id: row.id }, data: { attempts: MAX_EMAIL_ATTEMPTS - 1, nextAttemptAt: new Date(Date.now() - 1000) } });
    expect(await runMailerOnce(dead)).toBe(1);
    expect(await db().email.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "failed", attempts: MAX_EMAIL_ATTEMPTS, sealedBody: null });
    expect(received).toHaveLength(0);
  });

  it("revoking, replacing or accepting an invitation cancels its unsent e-mail", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const first = await createInvitation(tenant.id, owner(ownerUserId), { email: `a@${tenant.slug}.test`, role: "viewer" }, { mail });
    const revoked = await revokeInvitation(tenant.id, owner(ownerUserId), first.invitation.id);
    expect(revoked.email_delivery).toBe("canceled");
    const replaced = await createInvitation(tenant.id, owner(ownerUserId), { email: `b@${tenant.slug}.test`, role: "viewer" }, { mail });
    const replacement = await createInvitation(tenant.id, owner(ownerUserId), { email: `b@${tenant.slug}.test`, role: "admin" }, { mail });
    const accepted = await createInvitation(tenant.id, owner(ownerUserId), { email: `c@${tenant.slug}.test`, role: "viewer" }, { mail });
    await acceptInvitation(accepted.token, { name: "C", password: "correct horse battery" });

    const states = async (invitationId: string) => (await db().email.findMany({ where: { invitationId } })).map((e) => [e.status, e.sealedBody, e.lastError]);
    expect(await states(first.invitation.id)).toEqual([["canceled", null, "the invitation was revoked"]]);
    expect(await states(replaced.invitation.id)).toEqual([["canceled", null, "a newer invitation replaced this one"]]);
    expect(await states(accepted.invitation.id)).toEqual([["canceled", null, "the invitation was accepted before the e-mail was sent"]]);
    expect(await runMailerOnce()).toBe(1); // only the replacement
    expect(received.map((r) => r.to)).toEqual([[`b@${tenant.slug}.test`]]);
    expect(received[0]!.mail.text).toContain(replacement.token);
  });

  it("an invitation that expired before its e-mail went out is not sent", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const past = new Date(Date.now() - 8 * 86_400_000);
    const { invitation } = await createInvitation(tenant.id, owner(ownerUserId), { email: `late@${tenant.slug}.test`, role: "viewer" }, { mail, now: past });
    expect(await runMailerOnce()).toBe(0);
    expect(await db().email.findFirstOrThrow({ where: { invitationId: invitation.id } })).toMatchObject({ status: "canceled", sealedBody: null });
    expect(received).toHaveLength(0);
  });

  it("two mailers at once send each e-mail once", async () => {
    const { tenant, ownerUserId } = await newTenant();
    for (let i = 0; i < 6; i += 1) {
      await createInvitation(tenant.id, owner(ownerUserId), { email: `p${i}@${tenant.slug}.test`, role: "viewer" }, { mail });
    }
    const [one, two] = await Promise.all([claimEmails(4), claimEmails(4)]);
    expect(one!.length + two!.length).toBe(6);
    expect(new Set([...one!, ...two!].map((e) => e.id)).size).toBe(6);
    await db().email.updateMany({ where: { tenantId: tenant.id }, data: { lockedUntil: null } });
    const counts = await Promise.all([runMailerOnce(), runMailerOnce()]);
    expect(counts[0]! + counts[1]!).toBe(6);
    expect(received.map((r) => r.to[0]).sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `p${i}@${tenant.slug}.test`));
  });
});
