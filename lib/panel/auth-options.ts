import type { NextAuthOptions } from "next-auth";
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

export const authOptions: NextAuthOptions = {
  secret: getEnv().NEXTAUTH_SECRET,
  session: { strategy: "jwt", maxAge: 8 * 3600 },
  pages: { signIn: "/login" },
  providers: [
    Credentials({
      name: "E-mail and password",
      credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(raw) {
        const parsed = SignIn.safeParse(raw);
        if (!parsed.success) return null;
        const user = await db().user.findUnique({ where: { email: parsed.data.email } });
        const ok = await verifyPassword(user?.passwordHash ?? (await dummy()), parsed.data.password);
        if (!user || !ok) return null;
        return { id: user.id, email: user.email, name: user.name };
      },
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
