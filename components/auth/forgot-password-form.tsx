"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { panelFetch, PanelError } from "../credentials/panel-fetch";

// "Forgot your password?": an e-mail address in, the same answer out whether or not it has an account.
export function ForgotPasswordForm() {
  const t = useTranslations("PasswordReset");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<PanelError | null>(null);
  const emailError = error?.errors.find((e) => e.param === "email")?.message;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email")).trim();
    setPending(true);
    setError(null);
    try {
      await panelFetch("/api/password-resets", { method: "POST", body: { email } });
      setSentTo(email);
    } catch (err) {
      setError(err instanceof PanelError ? err : new PanelError(t("offline")));
    } finally {
      setPending(false);
    }
  }

  if (sentTo) return <p role="status" className="text-sm">{t("sent", { email: sentTo })}</p>;
  return (
    <form method="post" onSubmit={onSubmit} className="space-y-4">
      <label className="block text-sm">
        <span className="mb-1 block font-medium">{t("email")}</span>
        <input name="email" type="email" required maxLength={254} autoComplete="username" aria-invalid={emailError ? true : undefined} className="w-full rounded border border-slate-300 px-3 py-2" />
      </label>
      {error && <p role="alert" className="text-sm text-red-600">{emailError ?? error.message}</p>}
      <button type="submit" disabled={pending} className="w-full rounded bg-slate-900 px-3 py-2 text-sm font-medium text-white disabled:opacity-50">
        {pending ? t("pending") : t("send")}
      </button>
    </form>
  );
}
