"use client";

import { useTranslations } from "next-intl";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCodeLabels } from "@/components/labels";
import { CopyButton } from "@/components/copy-button";
import { panelFetch } from "@/components/credentials/panel-fetch";
import { formatBRL, formatDate, formatDateTime, formatDocument, formatPercent, formatPercentValue } from "@/components/format";
import { ChargeForm } from "./charge-form";
import { COLLECTIBLE, type ContractStatus } from "@/lib/contracts/transitions";
import { RefundForm } from "./refund-form";
import { WriteOffForm } from "./write-off-form";

// A contract's file: terms, installments with what is due today, charges (boleto line, Pix copy-and-paste with a
// copy button, QR), payments and their allocation, settlements and today's payoff quote, assignment, event timeline.

type Charge = {
  id: string;
  method: "boleto" | "pix";
  status: string;
  amount: number;
  due_date: string;
  installment_ids: string[];
  settlement_id: string | null;
  payment_page_url: string;
  boleto: { digitable_line: string } | null;
  pix: { brcode: string; qr_code: string; expires_at: string | null } | null;
};
type File = {
  contract: { id: string; number: string; status: string; product: string; principal: number; released_amount: number; monthly_rate: string; term: number; installment_amount: number; amount_paid: number; outstanding_balance: number; credit_balance: number; cet: { annual_percent: string }; disbursement_date: string };
  customer: { id: string; name: string; document: string };
  installments: { id: string; number: number; due_date: string; amount: number; paid_amount: number; late_charges_paid: number; status: string; amount_due: { total: number; fine: number; late_interest: number; days_late: number } }[];
  charges: Charge[];
  payments: { id: string; amount: number; source: string; paid_at: string; allocations: { installment_id: string; number?: number; total: number }[]; credit: number; credit_applied: number }[];
  refunds: { id: string; amount: number; method: string; reference: string | null; refunded_on: string }[];
  settlements: { id: string; type: string; status: string; amount: number; date: string }[];
  payoff_quote: { amount: number; date: string; valid_until?: string } | { unavailable: string } | null;
  assignment: { id: string; status: string; assignee: { name: string } } | null;
  timeline: { id: string; type: string; at: string }[];
  timeline_truncated: boolean;
};

export function ContractFile({ id, environment, tenantId, canRecordRefunds, canIssueCharges, canWriteOff }: { id: string; environment: "sandbox" | "production"; tenantId: string; canRecordRefunds: boolean; canIssueCharges: boolean; canWriteOff: boolean }) {
  const t = useTranslations("ContractFile");
  const labels = useCodeLabels();
  const file = useQuery({ queryKey: ["contracts", tenantId, environment, "file", id], queryFn: () => panelFetch<File>(`/api/panel/contracts/${id}?environment=${environment}`) });
  if (file.isPending) return <p className="text-sm text-slate-500">{t("loading")}</p>;
  if (file.isError) return <p role="alert" className="text-sm text-red-600">{file.error.message}</p>;
  const { contract: c, customer, installments, charges, payments, settlements, refunds, payoff_quote: quote, assignment, timeline, timeline_truncated: truncated } = file.data;
  const box = "rounded-lg border border-slate-200 bg-white p-4 text-sm";
  const numberOf = new Map(installments.map((i) => [i.id, i.number]));
  // Still collected (active, assigned to an assignee, written off and being recovered): standing, new charges, credit a payoff uses.
  const collectible = COLLECTIBLE.includes(c.status as ContractStatus);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t("title", { number: c.number })}</h1>
      <section aria-labelledby="c-terms" className={box}>
        <h2 id="c-terms" className="mb-2 font-semibold">{t("terms")}</h2>
        <p>
          {t("status")} <strong data-testid="contract-status">{labels.status(c.status)}</strong> ·{" "}
          <Link href={`/customers/${customer.id}?environment=${environment}`} className="underline">{customer.name}</Link> ({formatDocument(customer.document)}) · {labels.product(c.product)}
        </p>
        <p>
          {t("money", { principal: formatBRL(c.principal), released: formatBRL(c.released_amount), date: formatDate(c.disbursement_date), term: c.term, installment: formatBRL(c.installment_amount), rate: formatPercent(c.monthly_rate), cet: formatPercentValue(c.cet.annual_percent) })}
        </p>
        <p>{t("paid", { amount: formatBRL(c.amount_paid) })} <span data-testid="outstanding">{formatBRL(c.outstanding_balance)}</span></p>
        {c.credit_balance > 0 && (
          <p data-testid="credit-balance">
            {t(collectible ? "credit" : "creditOwed")} <strong>{formatBRL(c.credit_balance)}</strong>
          </p>
        )}
        {collectible && <Standing installments={installments} />}
        {quote && ("unavailable" in quote ? <p className="text-slate-600">{t("quoteUnavailable", { reason: quote.unavailable })}</p> : <p data-testid="payoff-quote">{t("quote", { date: formatDate(quote.date) })} <strong>{formatBRL(quote.amount)}</strong></p>)}
        {assignment && <p>{t("assignment", { id: assignment.id, status: labels.status(assignment.status), assignee: assignment.assignee.name })}</p>}
      </section>

      <section aria-labelledby="c-inst" className={box}>
        <h2 id="c-inst" className="mb-2 font-semibold">{t("installments")}</h2>
        <div className="max-h-72 overflow-auto" tabIndex={0} role="region" aria-label={t("installments")}>
          <table className="w-full text-right text-xs">
            <thead className="text-slate-500"><tr><th className="text-left">#</th><th className="text-left">{t("due")}</th><th>{t("amount")}</th><th className="pl-2">{t("paidCol")}</th><th className="pl-2">{t("lateChargesPaid")}</th><th className="pl-2">{t("dueToday")}</th><th className="pl-2 text-left">{t("status")}</th></tr></thead>
            <tbody>
              {installments.map((i) => (
                <tr key={i.id} data-testid="installment-row" className="border-t border-slate-100">
                  <td className="text-left">{i.number}</td><td className="text-left">{formatDate(i.due_date)}</td><td className="whitespace-nowrap">{formatBRL(i.amount)}</td><td className="whitespace-nowrap pl-2">{formatBRL(i.paid_amount)}</td><td className="whitespace-nowrap pl-2">{formatBRL(i.late_charges_paid)}</td><td className="whitespace-nowrap pl-2">{formatBRL(i.amount_due.total)}</td><td className="pl-2 text-left">{labels.status(i.status)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="c-charges" className={box}>
        <h2 id="c-charges" className="mb-2 font-semibold">{t("charges")}</h2>
        {charges.length === 0 && <p className="text-slate-600">{t("noCharges")}</p>}
        <ul className="space-y-3">
          {charges.map((ch) => (
            <li key={ch.id} data-testid="charge" className="rounded border border-slate-100 p-2">
              <p>
                {t("chargeLine", { method: labels.code(ch.method), status: labels.status(ch.status), amount: formatBRL(ch.amount), date: formatDate(ch.due_date) })}{" "}
                <span data-testid="charge-collects">
                  {ch.settlement_id
                    ? t("chargeForSettlement", { id: ch.settlement_id })
                    : t("chargeForInstallments", { numbers: ch.installment_ids.map((iid) => `#${numberOf.get(iid) ?? "?"}`).join(", ") })}
                </span>{" "}
                <a href={ch.payment_page_url} target="_blank" rel="noreferrer" className="underline">{t("paymentPage")}</a>
              </p>
              {ch.boleto && (
                <p className="mt-1 flex flex-wrap items-center gap-2 font-mono text-xs">
                  <span className="break-all">{ch.boleto.digitable_line}</span> <CopyButton text={ch.boleto.digitable_line} label={t("copyLine")} />
                </p>
              )}
              {ch.pix && (
                <div className="mt-1 flex flex-wrap items-start gap-3">
                  {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL made by the API, not an optimizable asset */}
                  <img src={ch.pix.qr_code} alt={t("qr", { id: ch.id })} width={128} height={128} className="border border-slate-200" />
                  <p className="flex max-w-md flex-col gap-1 font-mono text-xs">
                    <span className="break-all" data-testid="pix-brcode">{ch.pix.brcode}</span>
                    <span><CopyButton text={ch.pix.brcode} label={t("copyPix")} /></span>
                  </p>
                </div>
              )}
            </li>
          ))}
        </ul>
      </section>

      {canIssueCharges && collectible && <ChargeForm contractId={c.id} environment={environment} installments={installments} />}

      <section aria-labelledby="c-pay" className={box}>
        <h2 id="c-pay" className="mb-2 font-semibold">{t("payments")}</h2>
        {payments.length === 0 && settlements.length === 0 && refunds.length === 0 && <p className="text-slate-600">{t("none")}</p>}
        <ul className="space-y-1">
          {payments.map((p) => (
            <li key={p.id} data-testid="payment">
              {t("payment", { id: p.id, amount: formatBRL(p.amount), source: labels.code(p.source), date: formatDateTime(p.paid_at) })}
              {p.allocations.length > 0 && ` — ${p.allocations.map((a) => `#${a.number ?? "?"} ${formatBRL(a.total)}`).join(", ")}`}
              {p.credit_applied > 0 && ` — ${t("paymentCreditApplied", { amount: formatBRL(p.credit_applied) })}`}
              {p.credit > 0 && ` — ${t("paymentCredit", { amount: formatBRL(p.credit) })}`}
            </li>
          ))}
          {settlements.map((s) => <li key={s.id}>{t("settlement", { id: s.id, type: labels.code(s.type), status: labels.status(s.status), amount: formatBRL(s.amount), date: formatDate(s.date) })}</li>)}
          {refunds.map((r) => (
            <li key={r.id} data-testid="refund">
              {t("refund", { id: r.id, amount: formatBRL(r.amount), method: r.method.toUpperCase(), date: formatDate(r.refunded_on) })}
              {r.reference && ` — ${t("refundReference", { reference: r.reference })}`}
            </li>
          ))}
        </ul>
      </section>

      {/* Only an active contract in default is written off (the server checks it again). */}
      {canWriteOff && c.status === "active" && installments.some((i) => i.status === "overdue") && <WriteOffForm contractId={c.id} environment={environment} outstanding={c.outstanding_balance} />}

      {canRecordRefunds && c.credit_balance > 0 && <RefundForm key={c.credit_balance} contractId={c.id} environment={environment} credit={c.credit_balance} />}

      <section aria-labelledby="c-time" className={box}>
        <h2 id="c-time" className="mb-2 font-semibold">{t("timeline")}</h2>
        {truncated && <p className="mb-1 text-xs text-slate-500">{t("timelineTruncated", { count: timeline.length })}</p>}
        <ol aria-label={t("timeline")} className="space-y-1">
          {timeline.map((e) => <li key={e.id} data-testid="timeline-entry">{formatDateTime(e.at)} · {labels.code(e.type)} <code className="text-xs text-slate-500">{e.type}</code></li>)}
        </ol>
      </section>
    </div>
  );
}

/** What a borrower asking "how much do I owe, what is next" is told: the late installments (how many, since when,
 *  what they come to today with fine and interest) and the next one due. */
function Standing({ installments }: { installments: File["installments"] }) {
  const t = useTranslations("ContractFile");
  // Late as the server reckons it (status `overdue`: a due date on a weekend or holiday is not late until the next
  // business day has passed, Lei 7.089/1983), and its days from `amount_due`.
  const open = installments.filter((i) => i.status !== "paid" && i.status !== "canceled" && i.amount_due.total > 0);
  const late = open.filter((i) => i.status === "overdue");
  const next = open.find((i) => i.status !== "overdue");
  const days = late[0]?.amount_due.days_late ?? 0;
  return (
    <div data-testid="standing" className="my-2 space-y-0.5">
      {late.length > 0 ? (
        <p className="font-medium text-red-700">
          {t("lateSummary", { count: late.length, since: formatDate(late[0]!.due_date), days, amount: formatBRL(late.reduce((sum, i) => sum + i.amount_due.total, 0)) })}
        </p>
      ) : (
        <p className="text-green-800">{t("upToDate")}</p>
      )}
      {next && <p>{t("nextSummary", { date: formatDate(next.due_date), amount: formatBRL(next.amount_due.total) })}</p>}
    </div>
  );
}
