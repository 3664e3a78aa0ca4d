import type { Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { runMailerOnce } from "@/lib/mail/mailer";
import { createInvitation } from "@/lib/tenants/invitations";
import { newTenant } from "../helpers/factory";

// The mailer claims up to 20 e-mails with one lease each and sends them one after another. A slow batch can outlast
// the leases of the e-mails late in it; another worker may then claim and send one of them. The first worker renews
// each e-mail's lease just before sending it, only while the claim is still its own (same attempt: another worker's
// claim adds one), and skips one that is not — so every e-mail is sent once, and a lapsed lease nobody took over is
// still sent by its worker without spending another attempt. "Time passes" here by setting locked_until in SQL while the first worker is held inside
// its first send (a transport that waits for the test): nothing depends on timing.

process.env.SMTP_URL ??= "smtp://127.0.0.1:1"; // e-mails are written only with e-mail configured; nothing connects to it

type Transport = Transporter<SMTPTransport.SentMessageInfo>;

/** A transport that records the e-mail ids it sends (from the Message-ID) and runs `during` inside each send. */
function recordingTransport(sent: string[], during: (n: number) => Promise<void> = async () => {}): Transport {
  return {
    sendMail: async (mail: { messageId: string }) => {
      sent.push(/^<([^@]+)@/.exec(mail.messageId)![1]!);
      await during(sent.length);
      return { messageId: mail.messageId };
    },
  } as unknown as Transport;
}

/** A first send that waits until `release`; `started` resolves once it is in it. */
function heldFirstSend() {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const inside = new Promise<void>((resolve) => (started = resolve));
  const during = async (n: number) => {
    if (n !== 1) return;
    started();
    await gate;
  };
  return { during, inside, release };
}

/** Three invitation e-mails due in this order. */
async function threeEmails(): Promise<string[]> {
  const { tenant, ownerUserId } = await newTenant();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const { invitation } = await createInvitation(
      tenant.id,
      { type: "user", id: ownerUserId, label: "Owner" },
      { email: `pessoa${i}@${tenant.slug}.test`, role: "viewer" },
      { mail: { linkBase: "https://painel.example", locale: "pt-BR" } },
    );
    const email = await db().email.findFirstOrThrow({ where: { invitationId: invitation.id } });
    await db().email.update({ where: { id: email.id }, data: { nextAttemptAt: new Date(Date.now() - (3 - i) * 1000) } });
    ids.push(email.id);
  }
  return ids;
}

const lapse = (id: string) => db().$executeRaw`UPDATE emails SET locked_until = now() - interval '1 second' WHERE id = ${id}`;

beforeEach(async () => {
  // Other files' e-mails must not be claimed here.
  await db().email.updateMany({ where: { status: "pending" }, data: { status: "canceled", sealedBody: null } });
});

describe("the mailer's lease", () => {
  it("is renewed before each send: an e-mail whose lease lapsed mid-batch is sent once, by whichever worker holds it", async () => {
    const [first, second, third] = await threeEmails();
    const held = heldFirstSend();
    const sentA: string[] = [];
    const a = runMailerOnce(recordingTransport(sentA, held.during)); // claims all three, held in the first send
    await held.inside;

    // The batch took long: the second e-mail's lease lapsed and worker B claimed and sent it.
    await lapse(second!);
    const sentB: string[] = [];
    expect(await runMailerOnce(recordingTransport(sentB))).toBe(1);
    expect(sentB).toEqual([second]);
    // The third's lapsed too, and nobody has claimed it: still A's (no other claim added an attempt).
    await lapse(third!);

    held.release();
    expect(await a).toBe(3);
    expect(sentA).toEqual([first, third]); // not the second (B's now)

    const sentC: string[] = [];
    expect(await runMailerOnce(recordingTransport(sentC))).toBe(0); // nothing left
    expect(sentC).toEqual([]);

    const sent = [...sentA, ...sentB, ...sentC];
    expect([...sent].sort()).toEqual([first, second, third].sort()); // each exactly once
    const rows = await db().email.findMany({ where: { id: { in: [first!, second!, third!] } }, orderBy: { nextAttemptAt: "asc" } });
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([
      ["sent", 1],
      ["sent", 2], // A's claim lapsed; B's was the second
      ["sent", 1], // lapsed, but nobody else claimed it: A's one attempt
    ]);
  });

  it("a worker told to stop sends no further e-mail and gives the rest of its batch back", async () => {
    const [first, second, third] = await threeEmails();
    const held = heldFirstSend();
    const stop = new AbortController();
    const sent: string[] = [];
    const a = runMailerOnce(recordingTransport(sent, held.during), stop.signal);
    await held.inside;
    stop.abort();
    held.release();
    expect(await a).toBe(3);
    expect(sent).toEqual([first]);
    const rows = await db().email.findMany({ where: { id: { in: [first!, second!, third!] } }, orderBy: { nextAttemptAt: "asc" } });
    expect(rows.map((r) => ({ status: r.status, attempts: r.attempts, leased: r.lockedUntil !== null }))).toEqual([
      { status: "sent", attempts: 1, leased: false },
      { status: "pending", attempts: 0, leased: false }, // never attempted: due again at once, for any worker
      { status: "pending", attempts: 0, leased: false },
    ]);
    const next: string[] = [];
    expect(await runMailerOnce(recordingTransport(next))).toBe(2);
    expect(next).toEqual([second, third]);
  });
});
