import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as requestReset } from "@/app/api/password-resets/route";
import { POST as setPassword } from "@/app/api/password-resets/[token]/route";
import { passwordResetByToken, requestPasswordReset, resetPassword } from "@/lib/auth/password-reset";
import { verifyPassword } from "@/lib/auth/passwords";
import { db } from "@/lib/db/client";
import { backgroundSettled } from "@/lib/jobs/background";
import { runMailerOnce } from "@/lib/mail/mailer";
import { SIGN_IN_FAILURES_ALLOWED, signInAttempts } from "@/lib/panel/sign-in-attempts";
import { newTenant } from "../helpers/factory";

// "Forgot your password?" end to end on the real database and a real SMTP server: the panel's request answers the
// same for any address and e-mails a link only to an account; the link from the e-mail sets the new password once,
// before it expires; asking again voids the earlier link; the change is recorded (sessions before it end) and audited.

const inbox: ParsedMail[] = [];
const server = new SMTPServer({
  disabledCommands: ["STARTTLS"],
  authOptional: true,
  logger: false,
  onData: (stream, _session, done) => void simpleParser(stream).then((mail) => (inbox.push(mail), done()), done),
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // Before anything reads the configuration (lib/env.ts caches it per test file).
  process.env.SMTP_URL = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  process.env.NEXTAUTH_URL = "https://painel.credito-facil.example";
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(async () => {
  inbox.length = 0;
  await db().email.updateMany({ where: { status: "pending" }, data: { status: "canceled", sealedBody: null } });
});

const BASE = "https://painel.credito-facil.example";
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`${BASE}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: BASE, ...headers }, body: JSON.stringify(body) });
const linkIn = (mail: ParsedMail) => /\/reset-password\/(cppwr_[A-Za-z0-9_-]+)/.exec(mail.text ?? "")![1]!;

describe("password reset", () => {
  it("e-mails a link in the page's language; the link sets the new password once and records the change", async () => {
    const { tenant } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    const res = await requestReset(post("/api/password-resets", { email: email.toUpperCase() }, { "accept-language": "pt-BR" }), { params: Promise.resolve({}) });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: true });
    await backgroundSettled();
    expect(await runMailerOnce()).toBe(1);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]!.subject).toBe("Redefina sua senha da Credit Platform");
    expect(inbox[0]!.text).toContain(`Alguém — esperamos que você — pediu para redefinir a senha de ${email} na Credit Platform.`);
    const token = linkIn(inbox[0]!);
    expect(inbox[0]!.text).toContain(`Escolher uma nova senha: ${BASE}/reset-password/${token}`);
    const row = await db().email.findFirstOrThrow({ where: { toAddress: email, passwordResetId: { not: null } } });
    expect(row).toMatchObject({ tenantId: null, status: "sent", sealedBody: null });
    expect(await passwordResetByToken(token)).toEqual({ email, status: "open" });

    // Field errors come in the page's language: pt-BR by default, English when the browser asks for it.
    const short = await setPassword(post(`/api/password-resets/${token}`, { password: "short" }), { params: Promise.resolve({ token }) });
    expect(short.status).toBe(400);
    expect((await short.json()).errors).toEqual([{ param: "password", in: "body", message: "Ao menos 12 caracteres" }]);
    const shortEn = await setPassword(post(`/api/password-resets/${token}`, { password: "short" }, { "accept-language": "en-US" }), { params: Promise.resolve({ token }) });
    expect((await shortEn.json()).errors).toEqual([{ param: "password", in: "body", message: "At least 12 characters" }]);

    // Locked out by wrong passwords: the reset clears the count.
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED; i += 1) await signInAttempts().take(email);
    expect(await signInAttempts().locked(email)).toBe(true);
    const before = new Date();
    const done = await setPassword(post(`/api/password-resets/${token}`, { password: "a brand new passphrase" }), { params: Promise.resolve({ token }) });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ email });
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(await verifyPassword(user.passwordHash, "a brand new passphrase")).toBe(true);
    expect(await verifyPassword(user.passwordHash, "correct horse battery")).toBe(false);
    expect(user.passwordChangedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 5);
    expect(await passwordResetByToken(token)).toEqual({ email, status: "used" });
    expect(await signInAttempts().locked(email)).toBe(false);
    const audit = await db().auditLog.findFirstOrThrow({ where: { tenantId: tenant.id, action: "user.password_reset" } });
    expect(audit).toMatchObject({ actorType: "user", actorLabel: email, targetId: user.id });

    const again = await setPassword(post(`/api/password-resets/${token}`, { password: "yet another passphrase" }), { params: Promise.resolve({ token }) });
    expect(again.status).toBe(409);
    expect(await verifyPassword((await db().user.findUniqueOrThrow({ where: { email } })).passwordHash, "a brand new passphrase")).toBe(true);
  });

  it("answers the same for an address without an account, and sends nothing", async () => {
    const res = await requestReset(post("/api/password-resets", { email: "nobody@nowhere.test" }), { params: Promise.resolve({}) });
    expect([res.status, await res.json()]).toEqual([202, { accepted: true }]);
    await backgroundSettled();
    expect(await runMailerOnce()).toBe(0);
    expect(inbox).toHaveLength(0);
  });

  it("answers before the link is made, so its timing does not tell that the address has an account", async () => {
    const { tenant } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    // The link's transaction cannot proceed while this one holds the table: the answer must not wait for it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db().$transaction(async (tx) => {
      await tx.$executeRaw`LOCK TABLE password_resets IN ACCESS EXCLUSIVE MODE`;
      locked();
      await held;
    }, { timeout: 30_000 });
    await isLocked;
    const res = await requestReset(post("/api/password-resets", { email }), { params: Promise.resolve({}) });
    expect([res.status, await res.json()]).toEqual([202, { accepted: true }]);
    release();
    await holder;
    await backgroundSettled();
    expect(await db().passwordReset.count({ where: { user: { email } } })).toBe(1);
    expect(await runMailerOnce()).toBe(1);
    expect(inbox.map((m) => m.to)).toHaveLength(1);
  });

  it("asking again voids the earlier link (and its unsent e-mail); an expired link does not work; a forged one is not found", async () => {
    const { tenant } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    const mail = { linkBase: BASE, locale: "en" as const };
    const first = (await requestPasswordReset(email, mail))!;
    const second = (await requestPasswordReset(email, mail))!;
    const emails = await db().email.findMany({ where: { toAddress: email }, orderBy: { createdAt: "asc" } });
    expect(emails.map((e) => [e.status, e.lastError])).toEqual([["canceled", "a newer reset link replaced this one"], ["pending", null]]);
    expect(await passwordResetByToken(first.token)).toEqual({ email, status: "expired" });
    await expect(resetPassword(first.token, { password: "a brand new passphrase" })).rejects.toMatchObject({ code: "conflict" });
    await runMailerOnce();
    expect(inbox.map(linkIn)).toEqual([second.token]);
    expect(inbox[0]!.subject).toBe("Reset your Credit Platform password");

    // A link that expired before its e-mail went out is not sent.
    const third = (await requestPasswordReset(email, mail))!;
    await db().passwordReset.updateMany({ where: { user: { email }, usedAt: null, expiresAt: { gt: new Date() } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await runMailerOnce()).toBe(0);
    expect(await db().email.findFirstOrThrow({ where: { toAddress: email }, orderBy: { createdAt: "desc" } })).toMatchObject({
      status: "canceled",
      sealedBody: null,
      lastError: "the reset link expired before the e-mail was sent",
    });
    expect(await passwordResetByToken(third.token)).toEqual({ email, status: "expired" });

    const later = new Date(Date.now() + 61 * 60_000);
    expect(await passwordResetByToken(second.token, later)).toEqual({ email, status: "expired" });
    await expect(resetPassword(second.token, { password: "a brand new passphrase" }, later)).rejects.toMatchObject({ code: "conflict" });
    await expect(passwordResetByToken("cppwr_forged")).rejects.toMatchObject({ code: "not_found" });
    await expect(passwordResetByToken("cpinv_not-a-reset")).rejects.toMatchObject({ code: "not_found" });
  });

  it("sends at most 3 e-mails an hour to one address, and refuses another site's form", async () => {
    const { tenant } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    for (let i = 0; i < 5; i += 1) {
      const res = await requestReset(post("/api/password-resets", { email }), { params: Promise.resolve({}) });
      expect(res.status).toBe(202);
    }
    await backgroundSettled();
    expect(await db().passwordReset.count({ where: { user: { email } } })).toBe(3);
    const foreign = await requestReset(post("/api/password-resets", { email }, { origin: "https://evil.example" }), { params: Promise.resolve({}) });
    expect(foreign.status).toBe(403);
  });
});
