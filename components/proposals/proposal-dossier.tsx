"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import Link from "next/link";
import { useCodeLabels } from "@/components/labels";
import { panelFetch, PanelError } from "@/components/credentials/panel-fetch";
import { formatBRL, formatDate, formatDateTime, formatDocument, formatPercent, formatPercentValue } from "@/components/format";
import { ConfirmButton } from "@/components/webhooks/confirm-button";

// A proposal as a reviewer needs it: customer, terms and schedule, risk assessment with its reason codes, payroll
// margin, history (who and when); approve or reject with a mandatory reason, confirmed first.

type Dossier = {
  proposal: { id: string; status: string; allowed_actions: string[]; reason: string | null; expires_at: string | null; terms: { product: string; principal: number; released_amount: number; installment_amount: number; monthly_rate: string; term: number; cet: { monthly_percent: string; annual_percent: string } } };
  customer: { id: string; name: string; document: string; birth_date: string | null; monthly_income: number | null; email: string | null };
  exposure: { contracts: number; outstanding: number; late_contracts: number };
  simulation: { schedule: { number: number; due_date: string; payment: number; interest: number; amortization: number; closing_balance: number }[] } | null;
  risk: { score: number; band: string; decision: string; reasons: { code: string; description?: string }[] } | null;
  reservations: { id: string; status: string; installment_amount: number }[];
  endorsements: { id: string; status: string; contract_number: string | null }[];
  history: { action: string; actor: string; at: string; metadata: { reason?: string; from?: string; to?: string } }[];
};

export function ProposalDossier({ id, environment, tenantId, canReview }: { id: string; environment: "sandbox" | "production"; tenantId: string; canReview: boolean }) {
  const queryClient = useQueryClient();
  const key = ["proposals", tenantId, environment, "dossier", id];
  const dossier = useQuery({ queryKey: key, queryFn: () => panelFetch<Dossier>(`/api/panel/proposals/${id}?environment=${environment}`) });
  const [reason, setReason] = useState("");
  const t = useTranslations("Dossier");
  const labels = useCodeLabels();
  const review = useMutation({
    mutationFn: (decision: "approve" | "reject") => panelFetch(`/api/panel/proposals/${id}/review?environment=${environment}`, { method: "POST", body: { decision, reason } }),
    onSuccess: () => {
      setReason("");
      void queryClient.invalidateQueries({ queryKey: ["proposals", tenantId, environment] });
    },
  });
  if (dossier.isPending) return <p className="text-sm text-slate-500">{t("loading")}</p>;
  if (dossier.isError) return <p role="alert" className="text-sm text-red-600">{dossier.error.message}</p>;
  const { proposal, customer, exposure, simulation, risk, reservations, endorsements, history } = dossier.data;
  const reviewable = canReview && proposal.allowed_actions.includes("approve");
  const reasonError = review.error instanceof PanelError ? review.error.errors.find((e) => e.param === "reason")?.message : undefined;

  return (
    <div className="space-y-6">
      <p className="text-sm">
        {t("status")} <strong data-testid="proposal-status">{labels.status(proposal.status)}</strong>
        {proposal.reason && <span className="text-slate-600"> — {proposal.reason}</span>}
      </p>

      <section aria-labelledby="customer-h" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="customer-h" className="mb-2 font-semibold">{t("customer")}</h2>
        <p className="break-words">
          <Link href={`/customers/${customer.id}?environment=${environment}`} className="underline">{customer.name}</Link> · {formatDocument(customer.document)}
        </p>
        <p className="text-slate-600">
          {t("customerLine", { born: customer.birth_date ? formatDate(customer.birth_date) : "—", income: customer.monthly_income === null ? t("notDeclared") : formatBRL(customer.monthly_income), email: customer.email ?? t("noEmail") })}
        </p>
        <p data-testid="exposure" className={exposure.late_contracts > 0 ? "font-medium text-red-700" : "text-slate-600"}>
          {exposure.contracts === 0 ? t("noExposure") : t("exposure", { contracts: exposure.contracts, outstanding: formatBRL(exposure.outstanding), late: exposure.late_contracts })}
        </p>
      </section>

      <section aria-labelledby="terms-h" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="terms-h" className="mb-2 font-semibold">{t("terms")}</h2>
        <p>
          {t("termsLine", { product: labels.product(proposal.terms.product), principal: formatBRL(proposal.terms.principal), released: formatBRL(proposal.terms.released_amount), term: proposal.terms.term, installment: formatBRL(proposal.terms.installment_amount), rate: formatPercent(proposal.terms.monthly_rate), cet: formatPercentValue(proposal.terms.cet.annual_percent) })}
        </p>
        {simulation && (
          <div className="mt-3 max-h-64 overflow-auto" tabIndex={0} role="region" aria-label={t("schedule")}>
            <table className="w-full text-right text-xs" aria-label={t("schedule")}>
              <thead className="text-slate-500">
                <tr><th className="text-left">#</th><th className="text-left">{t("due")}</th><th>{t("payment")}</th><th>{t("interest")}</th><th>{t("amortization")}</th><th>{t("balance")}</th></tr>
              </thead>
              <tbody>
                {simulation.schedule.map((r) => (
                  <tr key={r.number} data-testid="schedule-row" className="border-t border-slate-100">
                    <td className="text-left">{r.number}</td><td className="text-left">{formatDate(r.due_date)}</td><td className="whitespace-nowrap pl-2">{formatBRL(r.payment)}</td><td className="whitespace-nowrap pl-2">{formatBRL(r.interest)}</td><td className="whitespace-nowrap pl-2">{formatBRL(r.amortization)}</td><td className="whitespace-nowrap pl-2">{formatBRL(r.closing_balance)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="risk-h" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="risk-h" className="mb-2 font-semibold">{t("risk")}</h2>
        {risk ? (
          <>
            <p>{t("riskLine", { score: risk.score, band: risk.band })} <strong data-testid="risk-decision">{labels.code(risk.decision)}</strong></p>
            <ul className="mt-1 list-disc pl-5" aria-label={t("reasonCodes")}>
              {risk.reasons.map((r) => <li key={r.code}><code>{r.code}</code>{r.description ? ` — ${r.description}` : ""}</li>)}
            </ul>
          </>
        ) : (
          <p className="text-slate-600">{t("notAssessed")}</p>
        )}
      </section>

      {(reservations.length > 0 || endorsements.length > 0) && (
        <section aria-labelledby="payroll-h" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <h2 id="payroll-h" className="mb-2 font-semibold">{t("payroll")}</h2>
          {reservations.map((r) => <p key={r.id}>{t("reservation", { id: r.id, status: labels.status(r.status), amount: formatBRL(r.installment_amount) })}</p>)}
          {endorsements.map((e) => <p key={e.id}>{t("endorsement", { id: e.id, status: labels.status(e.status) })}{e.contract_number ? ` (${e.contract_number})` : ""}</p>)}
        </section>
      )}

      {reviewable && (
        <section aria-labelledby="review-h" className="space-y-2 rounded-lg border border-slate-300 bg-white p-4 text-sm">
          <h2 id="review-h" className="font-semibold">{t("review")}</h2>
          <label className="block">
            <span className="mb-1 block font-medium">{t("reason")}</span>
            <textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={2} maxLength={500} className="w-full rounded border border-slate-300 px-2 py-1" />
            {reasonError && <span role="alert" className="block text-xs text-red-600">{reasonError}</span>}
          </label>
          <div className="flex flex-wrap gap-4">
            {/* Both wait for the mandatory reason (3 characters, as the server requires), asked before the confirmation. */}
            <ConfirmButton label={t("approve")} question={t("approveQuestion")} confirmLabel={t("confirmApprove")} danger={false} disabled={reason.trim().length < 3} pending={review.isPending} onConfirm={() => review.mutate("approve")} />
            <ConfirmButton label={t("reject")} question={t("rejectQuestion")} confirmLabel={t("confirmReject")} disabled={reason.trim().length < 3} pending={review.isPending} onConfirm={() => review.mutate("reject")} />
          </div>
          {review.error && !reasonError && <p role="alert" className="text-red-600">{review.error.message}</p>}
        </section>
      )}
      {review.isSuccess && <p role="status" className="text-sm text-green-700">{t("saved")}</p>}

      <section aria-labelledby="history-h" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="history-h" className="mb-2 font-semibold">{t("history")}</h2>
        <ol className="space-y-1" aria-label={t("history")}>
          {history.map((h, i) => (
            <li key={i} data-testid="history-entry">
              {formatDateTime(h.at)} · <code>{h.action}</code> {t("by", { actor: h.actor })}
              {h.metadata?.reason ? ` — “${h.metadata.reason}”` : ""}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
