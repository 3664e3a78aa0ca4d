"use client";

import { getCsrfToken, signIn } from "next-auth/react";

/**
 * Signs the browser in with an e-mail and password (next-auth's credentials provider), for the sign-in form and for
 * the forms that have just set a password (an invitation accepted, a reset link, a password change). One CSRF fetch
 * first, and a second try when next-auth answers `?csrf=true`: on a cold dev server its first calls can race (v4).
 * Returns null when signed in, else next-auth's error code ("CredentialsSignin", "too_many_attempts", …).
 */
export async function signInWithPassword(email: string, password: string): Promise<string | null> {
  const credentials = { email, password, redirect: false };
  await getCsrfToken();
  let result = await signIn("credentials", credentials);
  if (result?.url?.includes("csrf=true")) result = await signIn("credentials", credentials);
  if (!result) return "no_answer";
  return result.error ?? null;
}
