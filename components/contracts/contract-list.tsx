"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useCodeLabels } from "@/components/labels";
import { usePanelEnvironment } from "@/components/environment-context";
import { FILTER_INPUT, FilterField, FilterForm, ListTable } from "@/components/list-parts";
import { ListStatus, Pager, useFilteredList } from "@/components/paged-list";
import { formatBRL, formatDate, formatDateTime, formatDocument } from "@/components/format";

// Contracts of the panel's environment: filter by status (or late: active with an installment unpaid after its due
// date, each marked with the oldest such date), search by number, id, CPF/CNPJ or name; newest first, cursor pages;
// the filters kept in the address (Back, reload and a shared link show the same list).

type Row = { id: string; number: string; status: string; product: string; principal: number; outstanding_balance: number; created_at: string; customer: { name: string; document: string }; overdue_since: string | null };
type Filters = { status: string; q: string };
const STATUSES = ["active", "assigned", "settled", "written_off", "canceled"];

export function ContractList({ tenantId }: { tenantId: string }) {
  const { environment } = usePanelEnvironment();
  const { page, previous, next, apply, bind } = useFilteredList<Row, Filters>({ status: "", q: "" }, (f) => ["contracts", tenantId, environment, "list", f], "/api/panel/contracts", { limit: "25", environment });
  const t = useTranslations("Contracts");
  const l = useTranslations("Lists");
  const labels = useCodeLabels();
  return (
    <div className="space-y-4">
      <FilterForm onSubmit={apply}>
        <FilterField label={l("status")}>
          <select className={FILTER_INPUT} {...bind("status")}>
            <option value="">{l("any")}</option>
            <option value="overdue">{t("filterOverdue")}</option>
            {STATUSES.map((s) => <option key={s} value={s}>{labels.status(s)}</option>)}
          </select>
        </FilterField>
        <FilterField label={l("search")} grow>
          <input className={FILTER_INPUT} placeholder={t("searchPlaceholder")} {...bind("q")} />
        </FilterField>
      </FilterForm>
      <ListStatus page={page} empty={t("empty")} />
      {page.isSuccess && page.data.data.length > 0 && (
        <ListTable
          label={t("table")}
          headers={[{ text: t("number") }, { text: t("customer") }, { text: l("product") }, { text: t("principal"), right: true }, { text: t("outstanding"), right: true }, { text: l("status") }, { text: t("issued") }]}
        >
          {page.data.data.map((c) => (
            <tr key={c.id} data-testid="contract-row" className="border-t border-slate-100">
              <td className="whitespace-nowrap px-3 py-2"><Link href={`/contracts/${c.id}?environment=${environment}`} className="font-medium underline">{c.number}</Link></td>
              <td className="px-3 py-2">{c.customer.name}<span className="block whitespace-nowrap text-xs text-slate-500">{formatDocument(c.customer.document)}</span></td>
              <td className="px-3 py-2">{labels.product(c.product)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{formatBRL(c.principal)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{formatBRL(c.outstanding_balance)}</td>
              <td className="px-3 py-2">
                {labels.status(c.status)}
                {c.overdue_since && <span data-testid="overdue-since" className="block whitespace-nowrap text-xs font-medium text-red-700">{t("overdueSince", { date: formatDate(c.overdue_since) })}</span>}
              </td>
              <td className="whitespace-nowrap px-3 py-2">{formatDateTime(c.created_at)}</td>
            </tr>
          ))}
        </ListTable>
      )}
      <Pager previous={previous} next={next} />
    </div>
  );
}
