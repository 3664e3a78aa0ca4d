"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { panelFetch, PanelError } from "../credentials/panel-fetch";
import { signInWithPassword } from "./sign-in-with-password";

// The reset link's form: a new password (12+ characters), then the browser signs in with it.
export function ResetPasswordForm({ token, email }: { token: string; email: string }) {
  const router = useRouter();
  const t = useTranslations("PasswordReset");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<PanelError | null>(null);
  const passwordError = error?.errors.find((e) => e.param === "password")?.message;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password"));
    setPending(true);
    setError(null);
    try {
      await panelFetch(`/api/password-resets/${encodeURIComponent(token)}`, { method: "POST", body: { password } });
      const error = await signInWithPassword(email, password);
      router.replace(error ? "/login" : "/");
      router.refresh();
    } catch (err) {
      setError(err instanceof PanelError ? err : new PanelError(t("offline")));
      setPending(false);
    }
  }

  return (
    <form method="post" onSubmit={onSubmit} className="space-y-4">
      <label className="block text-sm">
        <span className="mb-1 block font-medium">{t("newPassword")}</span>
        <input
          name="password"
          type="password"
          required
          minLength={12}
          maxLength={200}
          autoComplete="new-password"
          aria-invalid={passwordError ? true : undefined}
          aria-describedby={passwordError ? "password-error" : undefined}
          className="w-full rounded border border-slate-300 px-3 py-2"
        />
        {passwordError && <span id="password-error" className="text-red-600">{passwordError}</span>}
      </label>
      {error && !passwordError && <p role="alert" className="text-sm text-red-600">{error.message}</p>}
      <button type="submit" disabled={pending} className="w-full rounded bg-slate-900 px-3 py-2 text-sm font-medium text-white disabled:opacity-50">
        {pending ? t("saving") : t("save")}
      </button>
    </form>
  );
}
