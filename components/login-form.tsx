"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { signInWithPassword } from "./auth/sign-in-with-password";

// The form's message for each refusal signInWithPassword reports; anything else is a wrong e-mail or password.
const SIGN_IN_ERRORS: Record<string, "tooMany" | "unavailable" | "unreachable"> = {
  too_many_attempts: "tooMany",
  sign_in_unavailable: "unavailable",
  no_answer: "unreachable",
  unreachable: "unreachable",
};

// method="post" so that, without JavaScript, the password never ends up in a URL.
export function LoginForm() {
  const router = useRouter();
  const t = useTranslations("Login");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const form = new FormData(event.currentTarget);
    let refused: string | null;
    try {
      refused = await signInWithPassword(String(form.get("email")), String(form.get("password")));
    } catch {
      // No answer next-auth could read (the connection dropped, a proxy's error page, a 503): not a wrong password.
      refused = "unreachable";
    } finally {
      setPending(false);
    }
    if (refused) {
      setError(t(SIGN_IN_ERRORS[refused] ?? "wrong"));
      return;
    }
    router.replace("/");
    router.refresh();
  }

  return (
    <form method="post" onSubmit={onSubmit} className="space-y-4">
      <label className="block text-sm">
        <span className="mb-1 block font-medium">{t("email")}</span>
        <input name="email" type="email" required autoComplete="username" className="w-full rounded border border-slate-300 px-3 py-2" />
      </label>
      <label className="block text-sm">
        <span className="mb-1 block font-medium">{t("password")}</span>
        <input name="password" type="password" required autoComplete="current-password" className="w-full rounded border border-slate-300 px-3 py-2" />
      </label>
      {error && <p role="alert" className="text-sm text-red-600">{error}</p>}
      <button type="submit" disabled={pending} className="w-full rounded bg-slate-900 px-3 py-2 text-sm font-medium text-white disabled:opacity-50">
        {pending ? t("pending") : t("submit")}
      </button>
      <p className="text-center text-sm">
        <Link href="/forgot-password" className="text-slate-600 underline">{t("forgot")}</Link>
      </p>
    </form>
  );
}
