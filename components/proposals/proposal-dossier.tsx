"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { panelFetch, PanelError } from "@/components/credentials/panel-fetch";
import { formatBRL, formatDateTime, formatDocument } from "@/components/format";
import { ConfirmButton } from "@/components/webhooks/confirm-button";

// A proposal as a reviewer needs it: customer, terms and schedule, risk assessment with its reason codes, payroll
// margin, history (who and when); approve or reject with a mandatory reason, confirmed first.

type Dossier = {
  proposal: { id: string; status: string; allowed_actions: string[]; reason: string | null; expires_at: string | null; terms: { product: string; principal: number; released_amount: number; installment_amount: number; monthly_rate: string; term: number; cet: { monthly_percent: string; annual_percent: string } } };
  customer: { name: string; document: string; birth_date: string | null; monthly_income: number | null; email: string | null };
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
  const review = useMutation({
    mutationFn: (decision: "approve" | "reject") => panelFetch(`/api/panel/proposals/${id}/review?environment=${environment}`, { method: "POST", body: { decision, reason } }),
    onSuccess: () => {
      setReason("");
      void queryClient.invalidateQueries({ queryKey: ["proposals", tenantId, environment] });
    },
  });
  if (dossier.isPending) return <p className="text-sm text-slate-500">Loading…</p>;
  if (dossier.isError) return <p role="alert" className="text-sm text-red-600">{dossier.error.message}</p>;
  const { proposal, customer, simulation, risk, reservations, endorsements, history } = dossier.data;
  const reviewable = canReview && proposal.allowed_actions.includes("approve");
  const reasonError = review.error instanceof PanelError ? review.error.errors.find((e) => e.param === "reason")?.message : undefined;

  return (
    <div className="space-y-6">
      <p className="text-sm">
        Status: <strong data-testid="proposal-status">{proposal.status}</strong>
        {proposal.reason && <span className="text-slate-600"> — {proposal.reason}</span>}
      </p>

      <section aria-labelledby="customer-h" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="customer-h" className="mb-2 font-semibold">Customer</h2>
        <p className="break-words">{customer.name} · {formatDocument(customer.document)}</p>
        <p className="text-slate-600">
          Born {customer.birth_date ?? "—"} · income {customer.monthly_income === null ? "not declared" : formatBRL(customer.monthly_income)} · {customer.email ?? "no e-mail"}
        </p>
      </section>

      <section aria-labelledby="terms-h" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="terms-h" className="mb-2 font-semibold">Terms</h2>
        <p>
          {proposal.terms.product} · principal {formatBRL(proposal.terms.principal)} · released {formatBRL(proposal.terms.released_amount)} · {proposal.terms.term} ×{" "}
          {formatBRL(proposal.terms.installment_amount)} at {proposal.terms.monthly_rate} a.m. · CET {proposal.terms.cet.annual_percent}% a.a.
        </p>
        {simulation && (
          <div className="mt-3 max-h-64 overflow-auto" tabIndex={0} role="region" aria-label="Schedule">
            <table className="w-full text-right text-xs" aria-label="Schedule">
              <thead className="text-slate-500">
                <tr><th className="text-left">#</th><th className="text-left">Due</th><th>Payment</th><th>Interest</th><th>Amortization</th><th>Balance</th></tr>
              </thead>
              <tbody>
                {simulation.schedule.map((r) => (
                  <tr key={r.number} data-testid="schedule-row" className="border-t border-slate-100">
                    <td className="text-left">{r.number}</td><td className="text-left">{r.due_date}</td><td>{formatBRL(r.payment)}</td><td>{formatBRL(r.interest)}</td><td>{formatBRL(r.amortization)}</td><td>{formatBRL(r.closing_balance)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="risk-h" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="risk-h" className="mb-2 font-semibold">Risk assessment</h2>
        {risk ? (
          <>
            <p>Score {risk.score} · band {risk.band} · decision <strong>{risk.decision}</strong></p>
            <ul className="mt-1 list-disc pl-5" aria-label="Reason codes">
              {risk.reasons.map((r) => <li key={r.code}><code>{r.code}</code>{r.description ? ` — ${r.description}` : ""}</li>)}
            </ul>
          </>
        ) : (
          <p className="text-slate-600">Not assessed yet (assessed on submission).</p>
        )}
      </section>

      {(reservations.length > 0 || endorsements.length > 0) && (
        <section aria-labelledby="payroll-h" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <h2 id="payroll-h" className="mb-2 font-semibold">Payroll margin</h2>
          {reservations.map((r) => <p key={r.id}>Reservation {r.id}: {r.status}, {formatBRL(r.installment_amount)}</p>)}
          {endorsements.map((e) => <p key={e.id}>Endorsement {e.id}: {e.status}{e.contract_number ? ` (${e.contract_number})` : ""}</p>)}
        </section>
      )}

      {reviewable && (
        <section aria-labelledby="review-h" className="space-y-2 rounded-lg border border-slate-300 bg-white p-4 text-sm">
          <h2 id="review-h" className="font-semibold">Review</h2>
          <label className="block">
            <span className="mb-1 block font-medium">Reason (required)</span>
            <textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={2} maxLength={500} className="w-full rounded border border-slate-300 px-2 py-1" />
            {reasonError && <span role="alert" className="block text-xs text-red-600">{reasonError}</span>}
          </label>
          <div className="flex flex-wrap gap-4">
            <ConfirmButton label="Approve" question="Approve this proposal?" confirmLabel="Confirm approval" danger={false} pending={review.isPending} onConfirm={() => review.mutate("approve")} />
            <ConfirmButton label="Reject" question="Reject this proposal? It cannot be reopened." confirmLabel="Confirm rejection" pending={review.isPending} onConfirm={() => review.mutate("reject")} />
          </div>
          {review.error && !reasonError && <p role="alert" className="text-red-600">{review.error.message}</p>}
        </section>
      )}
      {review.isSuccess && <p role="status" className="text-sm text-green-700">Review saved.</p>}

      <section aria-labelledby="history-h" className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <h2 id="history-h" className="mb-2 font-semibold">History</h2>
        <ol className="space-y-1" aria-label="History">
          {history.map((h, i) => (
            <li key={i} data-testid="history-entry">
              {formatDateTime(h.at)} · <code>{h.action}</code> by {h.actor}
              {h.metadata?.reason ? ` — “${h.metadata.reason}”` : ""}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
