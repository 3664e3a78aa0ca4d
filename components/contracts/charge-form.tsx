"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { panelFetch, PanelError } from "@/components/credentials/panel-fetch";
import { formatBRL, formatDate } from "@/components/format";
import { useIdempotencyKeys } from "@/components/idempotency-keys";
import { todayInBrazil } from "@/lib/clock";

// Issuing a charge from the contract file (support staff and above): the borrower asks for a new boleto or a Pix code
// — the "2ª via" of a late installment, or the next one early. POST /api/panel/contracts/{id}/charges, the same rules
// as POST /v1/charges: the amount adds the late fine and interest up to the due date. Ticked by default: every open
// installment due by today (or the oldest open one when none is); due today. The new charge appears in the list
// above, with its digitable line or copy-and-paste code to send the borrower.

type Installment = { id: string; number: number; due_date: string; status: string; amount_due: { total: number } };

const OPEN = ["open", "partially_paid", "overdue"];

export function ChargeForm({ contractId, environment, installments }: { contractId: string; environment: string; installments: Installment[] }) {
  const t = useTranslations("ChargeForm");
  const queryClient = useQueryClient();
  const today = todayInBrazil();
  const open = installments.filter((i) => OPEN.includes(i.status));
  const due = open.filter((i) => i.due_date <= today);
  const [chosen, setChosen] = useState<string[]>(() => (due.length > 0 ? due : open.slice(0, 1)).map((i) => i.id));
  const [method, setMethod] = useState<"boleto" | "pix">("boleto");
  const [dueDate, setDueDate] = useState(today);
  const keys = useIdempotencyKeys();
  const issue = useMutation({
    mutationFn: () => {
      const body = { method, installment_ids: open.filter((i) => chosen.includes(i.id)).map((i) => i.id), due_date: dueDate };
      // A click sent again after a lost answer replays the first charge instead of issuing a second one.
      return panelFetch<{ id: string }>(`/api/panel/contracts/${contractId}/charges?environment=${environment}`, { method: "POST", body, idempotencyKey: keys.keyFor(body) });
    },
    onSuccess: () => {
      keys.settled();
      setChosen([]); // issued: another charge for the same installments takes ticking them again
      void queryClient.invalidateQueries({ queryKey: ["contracts"] });
    },
  });
  if (open.length === 0) return null;
  const fieldError = (param: string) => (issue.error instanceof PanelError ? issue.error.errors.find((e) => e.param === param || e.param.startsWith(`${param}.`))?.message : undefined);
  const toggle = (id: string) => setChosen((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));
  const input = "rounded border border-slate-300 px-2 py-1";
  return (
    <section aria-labelledby="charge-h" className="space-y-2 rounded-lg border border-slate-300 bg-white p-4 text-sm">
      <h2 id="charge-h" className="font-semibold">{t("title")}</h2>
      <p className="text-slate-600">{t("intro")}</p>
      <fieldset>
        <legend className="mb-1 font-medium">{t("installments")}</legend>
        <ul className="flex flex-wrap gap-x-4 gap-y-1">
          {open.map((i) => (
            <li key={i.id}>
              <label className="inline-flex items-center gap-1">
                <input type="checkbox" checked={chosen.includes(i.id)} onChange={() => toggle(i.id)} />
                {t("installment", { number: i.number, date: formatDate(i.due_date), amount: formatBRL(i.amount_due.total) })}
              </label>
            </li>
          ))}
        </ul>
        {fieldError("installment_ids") && <p role="alert" className="text-xs text-red-600">{fieldError("installment_ids")}</p>}
      </fieldset>
      <div className="flex flex-wrap items-end gap-3">
        <label className="block">
          <span className="mb-1 block font-medium">{t("method")}</span>
          <select value={method} onChange={(e) => setMethod(e.target.value as "boleto" | "pix")} className={input}>
            <option value="boleto">{t("boleto")}</option>
            <option value="pix">{t("pix")}</option>
          </select>
        </label>
        <label className="block">
          <span className="mb-1 block font-medium">{t("dueDate")}</span>
          <input type="date" value={dueDate} min={today} onChange={(e) => setDueDate(e.target.value)} className={input} aria-invalid={fieldError("due_date") ? true : undefined} />
        </label>
        <button type="button" disabled={chosen.length === 0 || issue.isPending} onClick={() => issue.mutate()} className="rounded bg-slate-900 px-3 py-1.5 text-white disabled:opacity-50">
          {t("issue")}
        </button>
      </div>
      {fieldError("due_date") && <p role="alert" className="text-xs text-red-600">{fieldError("due_date")}</p>}
      {issue.error && !fieldError("installment_ids") && !fieldError("due_date") && <p role="alert" className="text-red-600">{issue.error.message}</p>}
      {issue.isSuccess && <p role="status" className="text-green-700">{t("issued", { id: issue.data.id })}</p>}
    </section>
  );
}
