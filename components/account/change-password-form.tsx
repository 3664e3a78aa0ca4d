"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { signInWithPassword } from "../auth/sign-in-with-password";
import { panelFetch, PanelError } from "../credentials/panel-fetch";

// Settings → Your account: a new password, confirmed with the current one. The change ends every session signed in
// before it, this one included, so the browser signs in again with the new password at once.
export function ChangePasswordForm({ email }: { email: string }) {
  const router = useRouter();
  const t = useTranslations("Account");
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<PanelError | null>(null);
  const fieldError = (param: string) => error?.errors.find((e) => e.param === param)?.message;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const body = { current_password: String(form.get("current_password")), new_password: String(form.get("new_password")) };
    setPending(true);
    setError(null);
    setDone(false);
    try {
      await panelFetch("/api/panel/account/password", { method: "POST", body });
      if (await signInWithPassword(email, body.new_password)) {
        router.replace("/login");
        return;
      }
      formElement.reset();
      setDone(true);
      router.refresh();
    } catch (err) {
      setError(err instanceof PanelError ? err : new PanelError(t("offline")));
    } finally {
      setPending(false);
    }
  }

  const field = (name: "current_password" | "new_password", label: string, autoComplete: string) => (
    <label className="block text-sm">
      <span className="mb-1 block font-medium">{label}</span>
      <input
        name={name}
        type="password"
        required
        minLength={name === "new_password" ? 12 : undefined}
        maxLength={200}
        autoComplete={autoComplete}
        aria-invalid={fieldError(name) ? true : undefined}
        aria-describedby={fieldError(name) ? `${name}-error` : undefined}
        className="w-full rounded border border-slate-300 px-3 py-2"
      />
      {fieldError(name) && <span id={`${name}-error`} className="text-red-600">{fieldError(name)}</span>}
    </label>
  );

  return (
    <form method="post" onSubmit={onSubmit} className="max-w-sm space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="font-medium">{t("changePassword")}</h2>
      {field("current_password", t("currentPassword"), "current-password")}
      {field("new_password", t("newPassword"), "new-password")}
      {error && error.errors.length === 0 && <p role="alert" className="text-sm text-red-600">{error.message}</p>}
      {done && <p role="status" className="text-sm text-green-700">{t("changed")}</p>}
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-2 text-sm font-medium text-white disabled:opacity-50">
        {pending ? t("saving") : t("save")}
      </button>
    </form>
  );
}
