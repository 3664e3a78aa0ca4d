"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";

// An action that asks first (delete, rotate, approve): the question replaces the button; confirming, Escape or
// Cancel takes it back and returns focus to the button, which stays disabled while the action is pending (a second
// click would send it again).
export function ConfirmButton({ label, question, confirmLabel, onConfirm, pending, danger = true, disabled = false }: { label: string; question: string; confirmLabel: string; onConfirm: () => void; pending: boolean; danger?: boolean; disabled?: boolean }) {
  const [asking, setAsking] = useState(false);
  const t = useTranslations("Common");
  const trigger = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirm.current?.focus();
  }, [asking]);
  const close = () => {
    setAsking(false);
    requestAnimationFrame(() => trigger.current?.focus());
  };
  if (!asking) {
    return (
      <button ref={trigger} type="button" disabled={disabled || pending} onClick={() => setAsking(true)} className={`text-sm underline disabled:cursor-not-allowed disabled:opacity-40 ${danger ? "text-red-700" : "text-slate-700"}`}>
        {label}
      </button>
    );
  }
  return (
    <span role="alertdialog" aria-label={question} className="flex flex-wrap items-center gap-2 text-sm" onKeyDown={(e) => e.key === "Escape" && close()}>
      <span>{question}</span>
      <button type="button" onClick={close} className="underline">{t("cancel")}</button>
      <button
        ref={confirm}
        type="button"
        disabled={pending}
        onClick={() => {
          onConfirm();
          close();
        }} className={`rounded px-2 py-1 text-white disabled:opacity-50 ${danger ? "bg-red-700" : "bg-slate-900"}`}>
        {confirmLabel}
      </button>
    </span>
  );
}
