"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { copyText } from "./copy-text";

/** Copies a text (a boleto line, a Pix copy-and-paste code, an invitation link) and says whether it did. */
export function CopyButton({ text, label }: { text: string; label?: string }) {
  const [outcome, setOutcome] = useState<"copied" | "failed" | null>(null);
  const t = useTranslations("Lists");
  return (
    <>
      <button type="button" className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs" onClick={async () => setOutcome((await copyText(text)) ? "copied" : "failed")}>
        {outcome === "copied" ? t("copied") : (label ?? t("copy"))}
      </button>
      {outcome === "failed" && <span role="alert" className="text-xs text-red-700">{t("copyFailed")}</span>}
    </>
  );
}
