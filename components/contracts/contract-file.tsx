"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { CopyButton } from "@/components/copy-button";
import { panelFetch } from "@/components/credentials/panel-fetch";
import { formatBRL, formatDateTime, formatDocument } from "@/components/format";

// A contract's file: terms, installments with what is due today, charges (boleto line, Pix copy-and-paste with a
// copy button, QR), payments and their allocation, settlements and today's payoff quote, assignment, event timeline.

type Charge = {
  id: string;
  method: "boleto" | "pix";
  status: string;
  amount: number;
  due_date: string;
  payment_page_url: string;
  boleto: { digitable_line: string } | null;
  pix: { brcode: string; qr_code: string; expires_at: string | null } | null;
};
type File = {
  contract: { id: string; number: string; status: string; product: string; principal: number; released_amount: number; monthly_rate: string; term: number; installment_amount: number; amount_paid: number; outstanding_balance: number; cet: { annual_percent: string }; disbursement_date: string };
  customer: { id: string; name: string; document: string };
  installments: { id: string; number: number; due_date: string; amount: number; paid_amount: number; status: string; amount_due: { total: number; fine: number; late_interest: number } }[];
  charges: Charge[];
  payments: { id: string; amount: number; source: string; paid_at: string; allocations: { installment_id: string; number?: number; total: number }[] }[];
  settlements: { id: string; type: string; status: string; amount: number; date: string }[];
  payoff_quote: { amount: number; date: string; valid_until?: string } | { unavailable: string } | null;
  assignment: { id: string; status: string; assignee: { name: string } } | null;
  timeline: { id: string; type: string; at: string }[];
};

export function ContractFile({ id, environment, tenantId }: { id: string; environment: "sandbox" | "production"; tenantId: string }) {
  const file = useQuery({ queryKey: ["contracts", tenantId, environment, "file", id], queryFn: () => panelFetch<File>(`/api/panel/contracts/${id}?environment=${environment}`) });
  if (file.isPending) return <p className="text-sm text-slate-500">Loading…</p>;
  if (file.isError) return <p role="alert" className="text-sm text-red-600">{file.error.message}</p>;
  const { contract: c, customer, installments, charges, payments, settlements, payoff_quote: quote, assignment, timeline } = file.data;
  const box = "rounded-lg border border-slate-200 bg-white p-4 text-sm";
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Contract {c.number}</h1>
      <section aria-labelledby="c-terms" className={box}>
        <h2 id="c-terms" className="mb-2 font-semibold">Terms</h2>
        <p>
          Status <strong data-testid="contract-status">{c.status}</strong> ·{" "}
          <Link href={`/customers/${customer.id}?environment=${environment}`} className="underline">{customer.name}</Link> ({formatDocument(customer.document)}) · {c.product}
        </p>
        <p>
          Principal {formatBRL(c.principal)} · released {formatBRL(c.released_amount)} on {c.disbursement_date} · {c.term} × {formatBRL(c.installment_amount)} at {c.monthly_rate} a.m. · CET{" "}
          {c.cet.annual_percent}% a.a.
        </p>
        <p>Paid {formatBRL(c.amount_paid)} · outstanding <span data-testid="outstanding">{formatBRL(c.outstanding_balance)}</span></p>
        {quote && ("unavailable" in quote ? <p className="text-slate-600">Payoff quote: {quote.unavailable}</p> : <p data-testid="payoff-quote">Payoff today ({quote.date}): <strong>{formatBRL(quote.amount)}</strong></p>)}
        {assignment && <p>Assignment {assignment.id}: {assignment.status}, to {assignment.assignee.name}</p>}
      </section>

      <section aria-labelledby="c-inst" className={box}>
        <h2 id="c-inst" className="mb-2 font-semibold">Installments</h2>
        <div className="max-h-72 overflow-auto" tabIndex={0} role="region" aria-label="Installments">
          <table className="w-full text-right text-xs">
            <thead className="text-slate-500"><tr><th className="text-left">#</th><th className="text-left">Due</th><th>Amount</th><th>Paid</th><th>Due today</th><th className="text-left">Status</th></tr></thead>
            <tbody>
              {installments.map((i) => (
                <tr key={i.id} data-testid="installment-row" className="border-t border-slate-100">
                  <td className="text-left">{i.number}</td><td className="text-left">{i.due_date}</td><td>{formatBRL(i.amount)}</td><td>{formatBRL(i.paid_amount)}</td><td>{formatBRL(i.amount_due.total)}</td><td className="pl-2 text-left">{i.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="c-charges" className={box}>
        <h2 id="c-charges" className="mb-2 font-semibold">Charges</h2>
        {charges.length === 0 && <p className="text-slate-600">No charges.</p>}
        <ul className="space-y-3">
          {charges.map((ch) => (
            <li key={ch.id} data-testid="charge" className="rounded border border-slate-100 p-2">
              <p>
                {ch.method} · {ch.status} · {formatBRL(ch.amount)} · due {ch.due_date} ·{" "}
                <a href={ch.payment_page_url} target="_blank" rel="noreferrer" className="underline">payment page</a>
              </p>
              {ch.boleto && (
                <p className="mt-1 flex flex-wrap items-center gap-2 font-mono text-xs">
                  <span className="break-all">{ch.boleto.digitable_line}</span> <CopyButton text={ch.boleto.digitable_line} label="Copy line" />
                </p>
              )}
              {ch.pix && (
                <div className="mt-1 flex flex-wrap items-start gap-3">
                  {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL made by the API, not an optimizable asset */}
                  <img src={ch.pix.qr_code} alt={`Pix QR code of charge ${ch.id}`} width={128} height={128} className="border border-slate-200" />
                  <p className="flex max-w-md flex-col gap-1 font-mono text-xs">
                    <span className="break-all" data-testid="pix-brcode">{ch.pix.brcode}</span>
                    <span><CopyButton text={ch.pix.brcode} label="Copy Pix code" /></span>
                  </p>
                </div>
              )}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="c-pay" className={box}>
        <h2 id="c-pay" className="mb-2 font-semibold">Payments and settlements</h2>
        {payments.length === 0 && settlements.length === 0 && <p className="text-slate-600">None yet.</p>}
        <ul className="space-y-1">
          {payments.map((p) => (
            <li key={p.id} data-testid="payment">
              Payment {p.id}: {formatBRL(p.amount)} by {p.source} on {formatDateTime(p.paid_at)}
              {p.allocations.length > 0 && ` — ${p.allocations.map((a) => `#${a.number ?? "?"} ${formatBRL(a.total)}`).join(", ")}`}
            </li>
          ))}
          {settlements.map((s) => <li key={s.id}>Settlement {s.id}: {s.type}, {s.status}, {formatBRL(s.amount)} on {s.date}</li>)}
        </ul>
      </section>

      <section aria-labelledby="c-time" className={box}>
        <h2 id="c-time" className="mb-2 font-semibold">Timeline</h2>
        <ol aria-label="Timeline" className="space-y-1">
          {timeline.map((e) => <li key={e.id} data-testid="timeline-entry">{formatDateTime(e.at)} · <code>{e.type}</code></li>)}
        </ol>
      </section>
    </div>
  );
}
