import type { Session } from "next-auth";
import type { JWT } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { changePassword } from "@/lib/auth/account-password";
import { requestPasswordReset, resetPassword } from "@/lib/auth/password-reset";
import { db } from "@/lib/db/client";
import { authOptions, authorizeSignIn, SESSION_MAX_AGE_SECONDS, sessionMatchesPassword, sessionWithinLifetime, type SessionClaims, type SignedIn } from "@/lib/panel/auth-options";
import { newTenant } from "../helpers/factory";

// A panel session stands for the password it proved. A change or reset of that password ends it — exactly, including
// a sign-in that read the old hash while the reset was committing (its session was made after the reset's time, so a
// comparison of times let it through for 8 renewable hours).

/** The session next-auth would build for that sign-in, through the app's own callbacks. */
async function sessionOf(user: SignedIn): Promise<SessionClaims> {
  const callbacks = authOptions.callbacks!;
  const token = (await callbacks.jwt!({ token: {} as JWT, user, account: null, trigger: "signIn" } as Parameters<NonNullable<typeof callbacks.jwt>>[0])) as JWT;
  const base = { user: { email: user.email, name: user.name }, expires: new Date(Date.now() + 3_600_000).toISOString() } as Session;
  return (await callbacks.session!({ session: base, token, user } as unknown as Parameters<NonNullable<typeof callbacks.session>>[0])) as SessionClaims;
}

const account = (email: string) => db().user.findUniqueOrThrow({ where: { email }, select: { passwordChangedAt: true } });

describe("a panel session and the account's password", () => {
  it("ends when a reset commits after the sign-in read the old password, however late the session is made", async () => {
    const { tenant } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    const before = (await authorizeSignIn({ email, password: "correct horse battery" }))!;
    expect(sessionMatchesPassword(await sessionOf(before), await account(email))).toBe(true);

    const racing = (await authorizeSignIn({ email, password: "correct horse battery" }))!; // read the old hash …
    const { token } = (await requestPasswordReset(email, null))!;
    await resetPassword(token, { password: "a brand new passphrase" }, new Date(Date.now() - 5_000)); // … the reset commits …
    const late = await sessionOf(racing); // … and only then is its session made, after the reset's time
    expect(late.signedInAt! * 1000).toBeGreaterThan((await account(email)).passwordChangedAt!.getTime());
    expect(sessionMatchesPassword(late, await account(email))).toBe(false);
    expect(sessionMatchesPassword(await sessionOf(before), await account(email))).toBe(false);

    const after = (await authorizeSignIn({ email, password: "a brand new passphrase" }))!;
    expect(sessionMatchesPassword(await sessionOf(after), await account(email))).toBe(true);
    expect(await authorizeSignIn({ email, password: "correct horse battery" })).toBeNull();
  });

  it("ends on a change of password; the sign-in with the new one holds", async () => {
    const { tenant } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    const old = await sessionOf((await authorizeSignIn({ email, password: "correct horse battery" }))!);
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    await changePassword(user.id, { current_password: "correct horse battery", new_password: "another long passphrase" });
    expect(sessionMatchesPassword(old, await account(email))).toBe(false);
    const renewed = await sessionOf((await authorizeSignIn({ email, password: "another long passphrase" }))!);
    expect(sessionMatchesPassword(renewed, await account(email))).toBe(true);
  });

  it("lasts 12 hours from its sign-in however often it is renewed; one without a sign-in time has ended", async () => {
    const { tenant } = await newTenant();
    const session = await sessionOf((await authorizeSignIn({ email: `owner@${tenant.slug}.test`, password: "correct horse battery" }))!);
    const signedIn = session.signedInAt! * 1000;
    expect(SESSION_MAX_AGE_SECONDS).toBe(12 * 3600);
    expect(sessionWithinLifetime(session, signedIn)).toBe(true);
    expect(sessionWithinLifetime(session, signedIn + SESSION_MAX_AGE_SECONDS * 1000)).toBe(true);
    expect(sessionWithinLifetime(session, signedIn + (SESSION_MAX_AGE_SECONDS + 1) * 1000)).toBe(false);
    expect(sessionWithinLifetime({ signedInAt: 0 }, signedIn)).toBe(false);
    expect(sessionWithinLifetime({}, signedIn)).toBe(false);
  });

  it("judges a session made before sessions carried the password's version by its sign-in time", () => {
    const changed = { passwordChangedAt: new Date("2026-11-24T12:00:00.500Z") };
    const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);
    expect(sessionMatchesPassword({ signedInAt: at("2026-11-24T11:59:59Z") }, changed)).toBe(false);
    expect(sessionMatchesPassword({ signedInAt: at("2026-11-24T12:00:00Z") }, changed)).toBe(true);
    expect(sessionMatchesPassword({ signedInAt: 0 }, { passwordChangedAt: null })).toBe(true);
  });
});
