import { randomBytes } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { endPanelSession } from "./ended-sessions";
import { signInAttempts } from "./sign-in-attempts";
import { CLIENT_ADDRESS_HEADER } from "@/lib/http/client-address";

// Panel sign-in: next-auth's credentials provider over argon2id password hashes, JWT sessions (8 h).
const SignIn = z.object({ email: z.email().trim().toLowerCase(), password: z.string().min(1).max(200) });

// An unknown e-mail is checked against a throw-away hash so it costs the same argon2 work as a wrong
// password: response times do not reveal which e-mails have accounts.
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword("not-a-password"));

// Password guessing: the e-mail's wrong passwords are counted (shared through Redis when configured) and past the
// limit even the right one is refused for the window; so are the client address's failed sign-ins, whatever the
// e-mails, when the address is known (./sign-in-attempts.ts). Either limit answers the same way.
export { SIGN_IN_FAILURES_ALLOWED, SIGN_IN_FAILURES_PER_ADDRESS } from "./sign-in-attempts";
export const TOO_MANY_ATTEMPTS = "too_many_attempts";
/** The account could not be read or the password not checked (the database is down or slow): no try is spent. */
export const SIGN_IN_UNAVAILABLE = "sign_in_unavailable";

export type SignedIn = { id: string; email: string; name: string; passwordVersion: number };

/** `address`: the client's (`signInAddress`); null when unknown, and then only the e-mail's count applies. */
export async function authorizeSignIn(raw: unknown, address: string | null = null): Promise<SignedIn | null> {
  const parsed = SignIn.safeParse(raw);
  if (!parsed.success) return null;
  const email = parsed.data.email;
  const attempts = signInAttempts();
  // The tries are counted before the account is read or the password checked (a wrong one keeps them counted; the
  // right one clears the e-mail's count and gives the address its try back).
  if (!(await attempts.take(email, address))) throw new Error(TOO_MANY_ATTEMPTS);
  let checked: Awaited<ReturnType<typeof checkPassword>>;
  try {
    checked = await checkPassword(email, parsed.data.password);
  } catch (err) {
    // Nothing was checked: the tries go back (a database blip must not lock the e-mail or an office's address),
    // the cause stays in the log, and the form says to try again — next-auth sends a thrown error's message to the
    // browser as `?error=`, so the message is only the code.
    log().error({ err }, "panel sign-in could not check the password");
    await attempts.giveBack(email, address).catch(() => undefined);
    throw new Error(SIGN_IN_UNAVAILABLE);
  }
  const { user, ok } = checked;
  if (!user || !ok) return null;
  await attempts.succeeded(email, address);
  // The password this sign-in proved, as of the read of its hash: the session holds while it is the account's.
  return { id: user.id, email: user.email, name: user.name, passwordVersion: passwordVersion(user.passwordChangedAt) };
}

async function checkPassword(email: string, password: string) {
  const user = await db().user.findUnique({ where: { email } });
  const ok = await verifyPassword(user?.passwordHash ?? (await dummy()), password);
  return { user, ok };
}

export const authOptions: NextAuthOptions = {
  // Read when a request needs it, not when the module loads: `next build` loads this module to collect the
  // route's configuration, and a build needs no secrets.
  get secret() {
    return getEnv().NEXTAUTH_SECRET;
  },
  session: { strategy: "jwt", maxAge: 8 * 3600 },
  // next-auth's messages in the app's log. A session cookie that does not decrypt (forged, or sealed under a
  // NEXTAUTH_SECRET since rotated) is the browser's problem, not ours: one warning line instead of a stack trace
  // on every page view; the visitor is simply not signed in.
  logger: {
    error(code, metadata) {
      const err = metadata instanceof Error ? metadata : metadata.error;
      if (code === "JWT_SESSION_ERROR") log().warn({ code, err: err?.message }, "panel session cookie rejected");
      else log().error({ code, err }, "next-auth error"); // ours to fix: with its stack, in the log only
    },
    warn(code) {
      log().warn({ code }, "next-auth warning");
    },
    debug() {},
  },
  pages: { signIn: "/login" },
  providers: [
    Credentials({
      name: "E-mail and password",
      credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: (raw, req) => authorizeSignIn(raw, signInAddress(req?.headers)),
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      // At sign-in: who, and which password it proved (the account's `password_changed_at` read with the hash it was
      // checked against). A session whose password is no longer the account's is refused (./session.ts) — exactly,
      // even for a sign-in that read the old hash while a reset was committing.
      if (user) {
        token.sub = user.id;
        token.signedInAt = Math.floor(Date.now() / 1000);
        token.passwordVersion = (user as Partial<SignedIn>).passwordVersion ?? 0;
        token.sid = randomBytes(18).toString("base64url"); // what signing out ends (./ended-sessions.ts)
      }
      return token;
    },
    session({ session, token }) {
      if (session.user) (session.user as { id?: string }).id = token.sub;
      const held = session as SessionClaims;
      held.signedInAt = typeof token.signedInAt === "number" ? token.signedInAt : 0;
      if (typeof token.passwordVersion === "number") held.passwordVersion = token.passwordVersion;
      if (typeof token.sid === "string") held.sessionId = token.sid;
      return session;
    },
  },
  events: {
    // Signing out ends the session, not only this browser's cookie: a copy of the cookie is refused from now on
    // (./session.ts). The panel's button records that first (POST /api/panel/session/end, which answers 503 when it
    // cannot: the button then says so and the session stays — next-auth only logs a failure here and still clears
    // the cookie, which left a copy working unbeknown to the user); this is the backstop for a sign-out made otherwise.
    async signOut({ token }) {
      if (!token) return; // a cookie that did not decode: nothing to end
      const { sid, signedInAt } = token as { sid?: unknown; signedInAt?: unknown };
      if (typeof sid !== "string") return; // a session from before ids were given: it ends with its lifetime
      await endPanelSession(sid, sessionEndsAt({ signedInAt: typeof signedInAt === "number" ? signedInAt : undefined }));
    },
  },
};

/** The client address a sign-in is counted against: the one the app's own server wrote (lib/http/client-address.ts —
 *  the socket's, or behind a trusted proxy the address it appended); null when the request did not come through it
 *  (then only the e-mail's count applies). */
export function signInAddress(headers: Record<string, unknown> | undefined): string | null {
  const value = headers?.[CLIENT_ADDRESS_HEADER];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** The claims the panel's session carries beside next-auth's. */
export type SessionClaims = { signedInAt?: number; passwordVersion?: number; sessionId?: string };

/** Which password an account has: when it was last set (ms; 0 if never changed since the account was made). */
export function passwordVersion(passwordChangedAt: Date | null): number {
  return passwordChangedAt?.getTime() ?? 0;
}

/** The longest a panel session lasts from its sign-in, however often it is used: next-auth renews the cookie's
 *  8 hours on every visit, so a session (or a copy of its cookie) kept busy would otherwise never end. */
export const SESSION_MAX_AGE_SECONDS = 12 * 3600;

/** When a session ends at the latest: its sign-in plus SESSION_MAX_AGE_SECONDS (one without a sign-in time: from now). */
export function sessionEndsAt(session: SessionClaims, now = Date.now()): Date {
  const since = session.signedInAt && session.signedInAt > 0 ? session.signedInAt : Math.floor(now / 1000);
  return new Date((since + SESSION_MAX_AGE_SECONDS) * 1000);
}

/** Whether the session's sign-in is recent enough (one without a sign-in time, from before it was recorded, is not). */
export function sessionWithinLifetime(session: SessionClaims, now = Date.now()): boolean {
  const signedInAt = session.signedInAt ?? 0;
  return signedInAt > 0 && Math.floor(now / 1000) - signedInAt <= SESSION_MAX_AGE_SECONDS;
}

/**
 * Whether a session still stands for the account's password: it proved the password the account has now. A session
 * from before `passwordVersion` existed is judged by its sign-in time (a second's resolution: one that read the old
 * hash while a change committed in the same second stayed — why the version replaced it).
 */
export function sessionMatchesPassword(session: SessionClaims, account: { passwordChangedAt: Date | null }): boolean {
  if (session.passwordVersion !== undefined) return session.passwordVersion === passwordVersion(account.passwordChangedAt);
  return !account.passwordChangedAt || (session.signedInAt ?? 0) >= Math.floor(account.passwordChangedAt.getTime() / 1000);
}
