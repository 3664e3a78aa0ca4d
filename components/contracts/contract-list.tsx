"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useCodeLabels } from "@/components/labels";
import { usePanelEnvironment } from "@/components/environment-context";
import { ListStatus, Pager, useFilteredList } from "@/components/paged-list";
import { formatBRL, formatDateTime, formatDocument } from "@/components/format";

// Contracts of the panel's environment: filter by status, search by number, id, CPF/CNPJ or name; newest first, cursor pages.

type Row = { id: string; number: string; status: string; product: string; principal: number; outstanding_balance: number; created_at: string; customer: { name: string; document: string } };
type Filters = { status: string; q: string };
const STATUSES = ["active", "assigned", "settled", "written_off", "canceled"];

export function ContractList({ tenantId }: { tenantId: string }) {
  const { environment } = usePanelEnvironment();
  const { page, previous, next, draft, setDraft, apply } = useFilteredList<Row, Filters>({ status: "", q: "" }, (f) => ["contracts", tenantId, environment, "list", f], "/api/panel/contracts", { limit: "25", environment });
  const field = "rounded border border-slate-300 px-2 py-1";
  const t = useTranslations("Contracts");
  const l = useTranslations("Lists");
  const labels = useCodeLabels();
  return (
    <div className="space-y-4">
      <form onSubmit={apply} aria-label={l("filters")} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm">
        <label className="flex flex-col">
          <span className="font-medium">{l("status")}</span>
          <select className={field} value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
            <option value="">{l("any")}</option>
            {STATUSES.map((s) => <option key={s} value={s}>{labels.status(s)}</option>)}
          </select>
        </label>
        <label className="flex min-w-48 flex-1 flex-col">
          <span className="font-medium">{l("search")}</span>
          <input className={field} value={draft.q} placeholder={t("searchPlaceholder")} onChange={(e) => setDraft({ ...draft, q: e.target.value })} />
        </label>
        <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 font-medium text-white">{l("apply")}</button>
      </form>
      <ListStatus page={page} empty={t("empty")} />
      {page.isSuccess && page.data.data.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label={t("table")}>
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs uppercase text-slate-500">
              <tr><th className="px-3 py-2">{t("number")}</th><th className="px-3 py-2">{t("customer")}</th><th className="px-3 py-2">{l("product")}</th><th className="px-3 py-2 text-right">{t("principal")}</th><th className="px-3 py-2 text-right">{t("outstanding")}</th><th className="px-3 py-2">{l("status")}</th><th className="px-3 py-2">{t("issued")}</th></tr>
            </thead>
            <tbody>
              {page.data.data.map((c) => (
                <tr key={c.id} data-testid="contract-row" className="border-t border-slate-100">
                  <td className="px-3 py-2"><Link href={`/contracts/${c.id}?environment=${environment}`} className="font-medium underline">{c.number}</Link></td>
                  <td className="px-3 py-2">{c.customer.name}<span className="block text-xs text-slate-500">{formatDocument(c.customer.document)}</span></td>
                  <td className="px-3 py-2">{labels.product(c.product)}</td>
                  <td className="px-3 py-2 text-right">{formatBRL(c.principal)}</td>
                  <td className="px-3 py-2 text-right">{formatBRL(c.outstanding_balance)}</td>
                  <td className="px-3 py-2">{labels.status(c.status)}</td>
                  <td className="whitespace-nowrap px-3 py-2">{formatDateTime(c.created_at)}</td>
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
