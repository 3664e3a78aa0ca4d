"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { panelFetch, PanelError } from "@/components/credentials/panel-fetch";
import { formatBRL, parseBRL } from "@/components/format";
import { ConfirmButton } from "@/components/webhooks/confirm-button";

// Recording a refund of the borrower's credit (owners and admins): the money went back by Pix or TED outside the
// platform; this records it (POST /api/panel/contracts/{id}/refunds, the same rules as POST /v1/refunds). The amount
// starts at the whole credit; the server refuses more than is refundable (e.g. money held for a pending settlement), and
// refuses the form sent again once the credit it showed has changed (a second click records nothing).

const METHODS = ["pix", "ted", "other"] as const;

export function RefundForm({ contractId, environment, credit }: { contractId: string; environment: string; credit: number }) {
  const t = useTranslations("Refund");
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState(formatBRL(credit).replace("R$ ", ""));
  const [method, setMethod] = useState<(typeof METHODS)[number]>("pix");
  const [reference, setReference] = useState("");
  const centavos = parseBRL(amount);
  const record = useMutation({
    mutationFn: () =>
      panelFetch(`/api/panel/contracts/${contractId}/refunds?environment=${environment}`, {
        method: "POST",
        body: { amount: centavos, method, ...(reference.trim() ? { reference: reference.trim() } : {}), expected_credit_balance: credit },
      }),
    onSuccess: () => {
      setReference("");
      void queryClient.invalidateQueries({ queryKey: ["contracts"] });
    },
  });
  const fieldError = (param: string) => (record.error instanceof PanelError ? record.error.errors.find((e) => e.param === param)?.message : undefined);
  const amountError = amount.trim() !== "" && centavos === null ? t("amountInvalid") : fieldError("amount");
  const input = "w-full rounded border border-slate-300 px-2 py-1";
  return (
    <section aria-labelledby="refund-h" className="space-y-2 rounded-lg border border-slate-300 bg-white p-4 text-sm">
      <h2 id="refund-h" className="font-semibold">{t("title")}</h2>
      <p className="text-slate-600">{t("intro")}</p>
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="block">
          <span className="mb-1 block font-medium">{t("amount")}</span>
          <input value={amount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" className={input} aria-invalid={amountError ? true : undefined} />
          {amountError && <span role="alert" className="block text-xs text-red-600">{amountError}</span>}
        </label>
        <label className="block">
          <span className="mb-1 block font-medium">{t("method")}</span>
          <select value={method} onChange={(e) => setMethod(e.target.value as (typeof METHODS)[number])} className={input}>
            {METHODS.map((m) => <option key={m} value={m}>{t(`methods.${m}`)}</option>)}
          </select>
        </label>
        <label className="block">
          <span className="mb-1 block font-medium">{t("reference")}</span>
          <input value={reference} onChange={(e) => setReference(e.target.value)} maxLength={140} className={input} />
          {fieldError("reference") && <span role="alert" className="block text-xs text-red-600">{fieldError("reference")}</span>}
        </label>
      </div>
      <ConfirmButton
        label={t("record")}
        question={t("question", { amount: centavos === null ? amount : formatBRL(centavos) })}
        confirmLabel={t("confirm")}
        danger={false}
        pending={record.isPending}
        onConfirm={() => centavos !== null && record.mutate()}
      />
      {record.error && !fieldError("amount") && !fieldError("reference") && <p role="alert" className="text-red-600">{record.error.message}</p>}
      {record.isSuccess && <p role="status" className="text-green-700">{t("recorded")}</p>}
    </section>
  );
}
