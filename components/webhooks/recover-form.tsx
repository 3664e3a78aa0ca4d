"use client";

import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { panelFetch, PanelError } from "@/components/credentials/panel-fetch";

// An endpoint's "Recover missed events": the events of its types since a moment the person picks (in their own time
// zone) that it never received — it was disabled, or its receiver was down until its retries ran out — are queued to
// it again (POST /v1/webhook-endpoints/{id}/recover, same service). A day back by default.

type Recovery = { deliveries_created: number; deliveries_resent: number; has_more: boolean };

/** `YYYY-MM-DDTHH:mm` in the browser's time zone, as a datetime-local input shows it. */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function RecoverForm({ url, onRecovered, disabled }: { url: string; onRecovered: () => void; disabled: boolean }) {
  const t = useTranslations("Webhooks");
  const [open, setOpen] = useState(false);
  const [since, setSince] = useState(() => localInputValue(new Date(Date.now() - 24 * 3600_000)));
  const recover = useMutation({
    mutationFn: (body: { since: string }) => panelFetch<Recovery>(url, { method: "POST", body }),
    onSuccess: onRecovered,
  });
  const fieldError = recover.error instanceof PanelError ? recover.error.errors.find((e) => e.param === "since")?.message : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const at = new Date(since);
    recover.mutate({ since: Number.isNaN(at.getTime()) ? since : at.toISOString() });
  };

  if (!open) {
    return (
      <button type="button" className="text-sm underline disabled:opacity-50" disabled={disabled} onClick={() => setOpen(true)}>
        {t("recover")}
      </button>
    );
  }
  return (
    <form onSubmit={submit} className="flex w-full flex-wrap items-end gap-3 rounded border border-slate-200 bg-slate-50 p-3 text-sm">
      <label className="block">
        <span className="mb-1 block font-medium">{t("recoverSince")}</span>
        <input type="datetime-local" required value={since} onChange={(e) => setSince(e.target.value)} className="rounded border border-slate-300 px-2 py-1" />
        {fieldError && <span role="alert" className="block text-xs text-red-600">{fieldError}</span>}
      </label>
      <button type="submit" disabled={recover.isPending || disabled} className="rounded bg-slate-900 px-3 py-1.5 font-medium text-white disabled:opacity-50">
        {t("recoverSubmit")}
      </button>
      <button type="button" className="underline" onClick={() => { setOpen(false); recover.reset(); }}>
        {t("recoverClose")}
      </button>
      <p className="w-full text-xs text-slate-600">{t("recoverHint")}</p>
      {recover.isSuccess && (
        <p role="status" className="w-full text-green-800">
          {t("recovered", { created: recover.data.deliveries_created, resent: recover.data.deliveries_resent })}
          {recover.data.has_more && ` ${t("recoverMore")}`}
        </p>
      )}
      {recover.error && !fieldError && <p role="alert" className="w-full text-red-600">{recover.error.message}</p>}
    </form>
  );
}
