"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { copyText, selectText } from "@/components/copy-text";

// A secret shown once, right after creation, with a copy button.
export function SecretReveal({ title, items, onDone }: { title: string; items: { label: string; value: string }[]; onDone: () => void }) {
  const [copied, setCopied] = useState<{ label: string; ok: boolean } | null>(null);
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
            onClick={async (event) => {
              if (await copyText(item.value)) return setCopied({ label: item.label, ok: true });
              // Not copied: say so, and select the secret for the person to copy by hand.
              selectText(event.currentTarget.parentElement?.querySelector("code") ?? null);
              setCopied({ label: item.label, ok: false });
            }}
          >
            {copied?.label === item.label && copied.ok ? l("copied") : l("copy")}
          </button>
          {copied?.label === item.label && !copied.ok && <span role="alert" className="text-xs text-red-700">{l("copyFailedSelected")}</span>}
        </div>
      ))}
      <button type="button" onClick={onDone} className="text-sm underline">{t("stored")}</button>
    </div>
  );
}
