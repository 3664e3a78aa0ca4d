"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

// A secret shown once, right after creation, with a copy button.
export function SecretReveal({ title, items, onDone }: { title: string; items: { label: string; value: string }[]; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const t = useTranslations("Credentials");
  const l = useTranslations("Lists");
  return (
    <div role="status" className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <p className="font-medium">{title}</p>
      <p className="text-sm text-amber-900">{t("copyNow")}</p>
      {items.map((item) => (
        <div key={item.label} className="flex items-center gap-2">
          <span className="w-28 text-sm text-slate-600">{item.label}</span>
          <code data-testid={`secret-${item.label}`} className="flex-1 break-all rounded bg-white px-2 py-1 text-xs">{item.value}</code>
          <button
            type="button"
            className="rounded border border-slate-300 bg-white px-2 py-1 text-xs"
            onClick={async () => {
              await navigator.clipboard?.writeText(item.value).catch(() => undefined);
              setCopied(item.label);
            }}
          >
            {copied === item.label ? l("copied") : l("copy")}
          </button>
        </div>
      ))}
      <button type="button" onClick={onDone} className="text-sm underline">{t("stored")}</button>
    </div>
  );
}
