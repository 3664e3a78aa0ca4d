"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type FormEvent } from "react";
import type { PanelError } from "../credentials/panel-fetch";

export type InviteInput = { email: string; role: "owner" | "admin" | "support" | "viewer" };

// Invite by e-mail with a role. The parent remounts it (a new key) after each invitation, which empties it.
export function InviteForm({ onSubmit, pending, error }: { onSubmit: (input: InviteInput) => void; pending: boolean; error: PanelError | null }) {
  const [email, setEmail] = useState("");
  const roleId = useId();
  const t = useTranslations("Members");
  const roles = useTranslations("Common.roles");
  const [role, setRole] = useState<InviteInput["role"]>("support");
  const emailError = error?.errors.find((e) => e.param === "email")?.message;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit({ email, role });
  };
  return (
    <form method="post" onSubmit={submit} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="w-full font-medium">{t("invite")}</h2>
      <label className="min-w-0 flex-1 text-sm">
        <span className="mb-1 block font-medium">{t("email")}</span>
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required maxLength={254} aria-invalid={emailError ? true : undefined} className="w-full rounded border border-slate-300 px-3 py-2" />
      </label>
      <div className="text-sm">
        <label htmlFor={roleId} className="mb-1 block font-medium">{t("role")}</label>
        <select id={roleId} value={role} onChange={(e) => setRole(e.target.value as InviteInput["role"])} className="rounded border border-slate-300 px-3 py-2">
          {(["owner", "admin", "support", "viewer"] as const).map((r) => (
            <option key={r} value={r}>{roles(r)}</option>
          ))}
        </select>
      </div>
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-2 text-sm font-medium text-white disabled:opacity-50">
        {pending ? t("pending") : t("submit")}
      </button>
      {error && <p role="alert" className="w-full text-sm text-red-600">{emailError ?? error.message}</p>}
    </form>
  );
}
