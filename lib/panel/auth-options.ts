import type { NextAuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { verifyPassword } from "@/lib/auth/passwords";
import { db } from "@/lib/db/client";
import { getEnv } from "@/lib/env";

// Panel sign-in: next-auth's credentials provider over argon2id password hashes, JWT sessions (8 h).
const SignIn = z.object({ email: z.email().trim().toLowerCase(), password: z.string().min(1).max(200) });

// A fixed hash so that an unknown e-mail costs the same argon2 work as a wrong password.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$0VjZbq0pYw2hQyVNmBvxG0m5lWBtXiIu0mI9pLj8fUQ";

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
        const ok = await verifyPassword(user?.passwordHash ?? DUMMY_HASH, parsed.data.password);
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
