import type { NextAuthOptions } from "next-auth";
import { RateLimiterMemory } from "rate-limiter-flexible";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";

// Panel sign-in: next-auth's credentials provider over argon2id password hashes, JWT sessions (8 h).
const SignIn = z.object({ email: z.email().trim().toLowerCase(), password: z.string().min(1).max(200) });

// An unknown e-mail is checked against a throw-away hash so it costs the same argon2 work as a wrong
// password: response times do not reveal which e-mails have accounts.
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword("not-a-password"));

// Password guessing: after SIGN_IN_FAILURES_ALLOWED wrong passwords for one e-mail within 15 minutes, that e-mail cannot
// sign in (even with the right password) until the window passes; a successful sign-in clears the count. Counted per
// process (memory): with several instances an attacker gets that many tries per instance.
export const SIGN_IN_FAILURES_ALLOWED = 10;
export const TOO_MANY_ATTEMPTS = "too_many_attempts";
const failures = new RateLimiterMemory({ points: SIGN_IN_FAILURES_ALLOWED, duration: 900, keyPrefix: "panel-sign-in" });

export async function authorizeSignIn(raw: unknown): Promise<{ id: string; email: string; name: string } | null> {
  const parsed = SignIn.safeParse(raw);
  if (!parsed.success) return null;
  const email = parsed.data.email;
  const seen = await failures.get(email);
  if (seen && seen.consumedPoints >= SIGN_IN_FAILURES_ALLOWED) throw new Error(TOO_MANY_ATTEMPTS);
  const user = await db().user.findUnique({ where: { email } });
  const ok = await verifyPassword(user?.passwordHash ?? (await dummy()), parsed.data.password);
  if (!user || !ok) {
    await failures.penalty(email, 1);
    return null;
  }
  await failures.delete(email);
  return { id: user.id, email: user.email, name: user.name };
}

export const authOptions: NextAuthOptions = {
  // Read when a request needs it, not when the module loads: `next build` loads this module to collect the
  // route's configuration, and a build needs no secrets.
  get secret() {
    return getEnv().NEXTAUTH_SECRET;
  },
  session: { strategy: "jwt", maxAge: 8 * 3600 },
  pages: { signIn: "/login" },
  providers: [
    Credentials({
      name: "E-mail and password",
      credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: (raw) => authorizeSignIn(raw),
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (session.user) (session.user as { id?: string }).id = token.sub;
      return session;
    },
  },
};
