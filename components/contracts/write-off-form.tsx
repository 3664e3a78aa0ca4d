"use client";

import { useState } from "react";
import { useTranslations } from "next-intl";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { panelFetch, PanelError } from "@/components/credentials/panel-fetch";
import { formatBRL } from "@/components/format";
import { ConfirmButton } from "@/components/webhooks/confirm-button";

// Writing a contract in default off (owners and admins; POST /api/panel/contracts/{id}/write-off, the same rules as
// POST /v1/contracts/{id}/write-off): the reason is kept in the audit log and the `contract.written_off` event. The
// debt stays the borrower's — the balance does not change and the contract is still collected — so the question says so.

export function WriteOffForm({ contractId, environment, outstanding }: { contractId: string; environment: string; outstanding: number }) {
  const t = useTranslations("WriteOff");
  const queryClient = useQueryClient();
  const [reason, setReason] = useState("");
  const writeOff = useMutation({
    mutationFn: () => panelFetch(`/api/panel/contracts/${contractId}/write-off?environment=${environment}`, { method: "POST", body: { reason: reason.trim() } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["contracts"] }),
  });
  const reasonError = writeOff.error instanceof PanelError ? writeOff.error.errors.find((e) => e.param === "reason")?.message : undefined;
  return (
    <section aria-labelledby="write-off-h" className="space-y-2 rounded-lg border border-red-200 bg-white p-4 text-sm">
      <h2 id="write-off-h" className="font-semibold">{t("title")}</h2>
      <p className="text-slate-600">{t("intro")}</p>
      <label className="block">
        <span className="mb-1 block font-medium">{t("reason")}</span>
        <textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} rows={2} className="w-full rounded border border-slate-300 px-2 py-1" aria-invalid={reasonError ? true : undefined} />
        {reasonError && <span role="alert" className="block text-xs text-red-600">{reasonError}</span>}
      </label>
      <ConfirmButton
        label={t("action")}
        question={t("question", { amount: formatBRL(outstanding) })}
        confirmLabel={t("confirm")}
        pending={writeOff.isPending}
        disabled={reason.trim() === ""}
        onConfirm={() => writeOff.mutate()}
      />
      {writeOff.error && !reasonError && <p role="alert" className="text-red-600">{writeOff.error.message}</p>}
    </section>
  );
}
