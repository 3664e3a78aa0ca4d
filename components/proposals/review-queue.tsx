"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useCodeLabels } from "@/components/labels";
import { usePanelEnvironment } from "@/components/environment-context";
import { ListStatus, Pager, useFilteredList } from "@/components/paged-list";
import { formatBRL, formatDateTime, formatDocument } from "@/components/format";

// Proposals queue of the panel's environment: filter by status, product, creation dates; search by proposal id, CPF/CNPJ or
// customer name; newest or oldest first; pages with the API's cursors. Every row opens the proposal's dossier.

type Row = {
  id: string;
  status: string;
  created_at: string;
  terms: { product: string; principal: number; term: number; installment_amount: number };
  customer: { name: string; document: string };
};
type Filters = { status: string; product: string; from: string; to: string; q: string; order: "newest" | "oldest" };

const STATUSES = ["pending_review", "draft", "approved", "signed", "contract_issued", "rejected", "canceled", "expired"];
const PRODUCTS = ["inss_payroll", "private_payroll", "personal_loan"];
const INITIAL: Filters = { status: "pending_review", product: "", from: "", to: "", q: "", order: "oldest" };

export function ReviewQueue({ tenantId }: { tenantId: string }) {
  const { environment } = usePanelEnvironment();
  const { page, previous, next, draft, setDraft, apply } = useFilteredList<Row, Filters>(INITIAL, (f) => ["proposals", tenantId, environment, "queue", f], "/api/panel/proposals", { limit: "25", environment });
  const field = "rounded border border-slate-300 px-2 py-1";
  const t = useTranslations("Proposals");
  const l = useTranslations("Lists");
  const labels = useCodeLabels();

  return (
    <div className="space-y-4">
      <form onSubmit={apply} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm" aria-label={l("filters")}>
        <label className="flex flex-col">
          <span className="font-medium">{l("status")}</span>
          <select className={field} value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
            <option value="">{l("any")}</option>
            {STATUSES.map((s) => <option key={s} value={s}>{labels.status(s)}</option>)}
          </select>
        </label>
        <label className="flex flex-col">
          <span className="font-medium">{l("product")}</span>
          <select className={field} value={draft.product} onChange={(e) => setDraft({ ...draft, product: e.target.value })}>
            <option value="">{l("any")}</option>
            {PRODUCTS.map((p) => <option key={p} value={p}>{labels.product(p)}</option>)}
          </select>
        </label>
        <label className="flex flex-col">
          <span className="font-medium">{t("createdFrom")}</span>
          <input type="date" className={field} value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </label>
        <label className="flex flex-col">
          <span className="font-medium">{t("to")}</span>
          <input type="date" className={field} value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        <label className="flex min-w-48 flex-1 flex-col">
          <span className="font-medium">{l("search")}</span>
          <input className={field} value={draft.q} placeholder={t("searchPlaceholder")} onChange={(e) => setDraft({ ...draft, q: e.target.value })} />
        </label>
        <label className="flex flex-col">
          <span className="font-medium">{t("order")}</span>
          <select className={field} value={draft.order} onChange={(e) => setDraft({ ...draft, order: e.target.value as Filters["order"] })}>
            <option value="oldest">{t("oldest")}</option>
            <option value="newest">{t("newest")}</option>
          </select>
        </label>
        <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 font-medium text-white">{l("apply")}</button>
      </form>

      <ListStatus page={page} empty={t("empty")} />
      {page.isSuccess && page.data.data.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label={t("table")}>
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs uppercase text-slate-500">
              <tr>
                <th className="px-3 py-2">{t("created")}</th>
                <th className="px-3 py-2">{t("customer")}</th>
                <th className="px-3 py-2">{l("product")}</th>
                <th className="px-3 py-2 text-right">{t("principal")}</th>
                <th className="px-3 py-2">{t("term")}</th>
                <th className="px-3 py-2">{l("status")}</th>
              </tr>
            </thead>
            <tbody>
              {page.data.data.map((p) => (
                <tr key={p.id} data-testid="proposal-row" className="border-t border-slate-100">
                  <td className="whitespace-nowrap px-3 py-2">{formatDateTime(p.created_at)}</td>
                  <td className="px-3 py-2">
                    <Link href={`/proposals/${p.id}?environment=${environment}`} className="font-medium underline">{p.customer.name}</Link>
                    <span className="block text-xs text-slate-500">{formatDocument(p.customer.document)}</span>
                  </td>
                  <td className="px-3 py-2">{labels.product(p.terms.product)}</td>
                  <td className="px-3 py-2 text-right">{formatBRL(p.terms.principal)}</td>
                  <td className="px-3 py-2">{p.terms.term} × {formatBRL(p.terms.installment_amount)}</td>
                  <td className="px-3 py-2">{labels.status(p.status)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager previous={previous} next={next} />
    </div>
  );
}
