"use client";

import { useTranslations } from "next-intl";
import { RESOURCES, SPECIAL_PERMISSIONS } from "@/lib/auth/permissions";

// Coarse scopes first (what most integrations need), fine-grained ones for least privilege. Each checkbox is named by
// its visible label (WCAG 2.5.3: a voice user says what they see), the scope itself in its title.
export function PermissionPicker({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const t = useTranslations("Credentials");
  const toggle = (p: string) => onChange(value.includes(p) ? value.filter((v) => v !== p) : [...value, p]);
  const box = (p: string, label: string) => (
    <label key={p} className="flex items-center gap-2 text-sm" title={p}>
      <input type="checkbox" checked={value.includes(p)} onChange={() => toggle(p)} />
      <span>{label}</span>
    </label>
  );
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-medium">{t("permissions")}</legend>
      <div className="flex gap-6">
        {box("read", t("readAll"))}
        {box("write", t("writeAll"))}
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-slate-600">{t("fine")}</summary>
        <div className="mt-2 grid grid-cols-2 gap-1">
          {RESOURCES.flatMap((r) => [box(`${r}:read`, `${r}:read`), box(`${r}:write`, `${r}:write`)])}
          {SPECIAL_PERMISSIONS.map((p) => box(p, p))}
        </div>
      </details>
    </fieldset>
  );
}
