"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { signInWithPassword } from "../auth/sign-in-with-password";
import { panelFetch, PanelError } from "../credentials/panel-fetch";

// Accepting an invitation: a new account chooses its name and password, an existing one confirms its password.
// Then the browser signs in with those credentials and opens the tenant it joined.
export function AcceptInvitationForm({ token, email, accountExists }: { token: string; email: string; accountExists: boolean }) {
  const router = useRouter();
  const t = useTranslations("Invitation");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<PanelError | null>(null);
  const fieldError = (param: string) => error?.errors.find((e) => e.param === param)?.message;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password"));
    setPending(true);
    setError(null);
    try {
      const body = accountExists ? { password } : { name: String(form.get("name")), password };
      const joined = await panelFetch<{ tenant_id: string }>(`/api/invitations/${encodeURIComponent(token)}/accept`, { method: "POST", body });
      if (await signInWithPassword(email, password)) {
        router.replace("/login");
        return;
      }
      await panelFetch("/api/panel/active-tenant", { method: "POST", body: { tenant_id: joined.tenant_id } });
      router.replace("/");
      router.refresh();
    } catch (err) {
      setError(err instanceof PanelError ? err : new PanelError(t("offline")));
      setPending(false);
    }
  }

  return (
    <form method="post" onSubmit={onSubmit} className="space-y-4">
      {!accountExists && (
        <label className="block text-sm">
          <span className="mb-1 block font-medium">{t("name")}</span>
          <input name="name" required maxLength={120} autoComplete="name" aria-invalid={fieldError("name") ? true : undefined} aria-describedby={fieldError("name") ? "name-error" : undefined} className="w-full rounded border border-slate-300 px-3 py-2" />
          {fieldError("name") && <span id="name-error" className="text-red-600">{fieldError("name")}</span>}
        </label>
      )}
      <label className="block text-sm">
        <span className="mb-1 block font-medium">{accountExists ? t("passwordExisting", { email }) : t("passwordNew")}</span>
        <input
          name="password"
          type="password"
          required
          minLength={accountExists ? undefined : 12}
          maxLength={200}
          autoComplete={accountExists ? "current-password" : "new-password"}
          aria-invalid={fieldError("password") ? true : undefined}
          aria-describedby={fieldError("password") ? "password-error" : undefined}
          className="w-full rounded border border-slate-300 px-3 py-2"
        />
        {fieldError("password") && <span id="password-error" className="text-red-600">{fieldError("password")}</span>}
      </label>
      {error && error.errors.length === 0 && <p role="alert" className="text-sm text-red-600">{error.message}</p>}
      <button type="submit" disabled={pending} className="w-full rounded bg-slate-900 px-3 py-2 text-sm font-medium text-white disabled:opacity-50">
        {pending ? t("pending") : t("submit")}
      </button>
    </form>
  );
}
