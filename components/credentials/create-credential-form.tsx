"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { usePanelEnvironment } from "../environment-context";
import type { PanelError } from "./panel-fetch";
import { PermissionPicker } from "./permission-picker";

export type CreateCredentialInput = { name: string; environment: "sandbox" | "production"; permissions: string[] };

export function CreateCredentialForm({ title, submitLabel, onSubmit, pending, error }: {
  title: string;
  submitLabel: string;
  onSubmit: (input: CreateCredentialInput) => void;
  pending: boolean;
  error: PanelError | null;
}) {
  const t = useTranslations("Credentials");
  const names = useTranslations("Environment.names");
  const fieldError = (param: string) => error?.errors.find((e) => e.param === param)?.message;
  const [name, setName] = useState("");
  // The environment on screen (the sidebar's switch) unless chosen otherwise here: a key made while production is
  // shown is a production key.
  const [environment, setEnvironment] = useState<"sandbox" | "production">(usePanelEnvironment().environment);
  const [permissions, setPermissions] = useState<string[]>(["read"]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit({ name, environment, permissions });
  };
  return (
    <form method="post" onSubmit={submit} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="font-medium">{title}</h2>
      <label className="block text-sm">
        <span className="mb-1 block font-medium">{t("name")}</span>
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={80} aria-invalid={fieldError("name") ? true : undefined} className="w-full rounded border border-slate-300 px-3 py-2" />
        {fieldError("name") && <span className="text-red-600">{fieldError("name")}</span>}
      </label>
      <fieldset className="flex gap-6 text-sm">
        <legend className="mb-1 font-medium">{t("environment")}</legend>
        {(["sandbox", "production"] as const).map((env) => (
          <label key={env} className="flex items-center gap-2">
            <input type="radio" name="environment" value={env} checked={environment === env} onChange={() => setEnvironment(env)} />
            {names(env)}
          </label>
        ))}
      </fieldset>
      <PermissionPicker value={permissions} onChange={setPermissions} />
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error.message}
          {error.errors.filter((e) => e.param !== "name").map((e) => ` ${e.param}: ${e.message}`).join(";")}
        </p>
      )}
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-2 text-sm font-medium text-white disabled:opacity-50">
        {submitLabel}
      </button>
    </form>
  );
}
