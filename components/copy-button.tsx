"use client";

import { useState } from "react";

/** Copies a text (a boleto line, a Pix copy-and-paste code) and says so. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs"
      onClick={async () => {
        await navigator.clipboard?.writeText(text).catch(() => undefined);
        setCopied(true);
      }}
    >
      {copied ? "Copied" : label}
    </button>
  );
}
