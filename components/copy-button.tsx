"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

/** Copies a text (a boleto line, a Pix copy-and-paste code) and says so. */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const t = useTranslations("Lists");
  return (
    <button
      type="button"
      className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs"
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => undefined);
        setCopied(true);
      }}
    >
      {copied ? t("copied") : (label ?? t("copy"))}
    </button>
  );
}
