"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useCodeLabels } from "@/components/labels";
import { usePanelEnvironment } from "@/components/environment-context";
import { FILTER_INPUT, FilterField, FilterForm, ListTable } from "@/components/list-parts";
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
  const { page, previous, next, apply, bind } = useFilteredList<Row, Filters>(INITIAL, (f) => ["proposals", tenantId, environment, "queue", f], "/api/panel/proposals", { limit: "25", environment });
  const t = useTranslations("Proposals");
  const l = useTranslations("Lists");
  const labels = useCodeLabels();

  return (
    <div className="space-y-4">
      <FilterForm onSubmit={apply}>
        <FilterField label={l("status")}>
          <select className={FILTER_INPUT} {...bind("status")}>
            <option value="">{l("any")}</option>
            {STATUSES.map((s) => <option key={s} value={s}>{labels.status(s)}</option>)}
          </select>
        </FilterField>
        <FilterField label={l("product")}>
          <select className={FILTER_INPUT} {...bind("product")}>
            <option value="">{l("any")}</option>
            {PRODUCTS.map((p) => <option key={p} value={p}>{labels.product(p)}</option>)}
          </select>
        </FilterField>
        <FilterField label={t("createdFrom")}>
          <input type="date" className={FILTER_INPUT} {...bind("from")} />
        </FilterField>
        <FilterField label={t("to")}>
          <input type="date" className={FILTER_INPUT} {...bind("to")} />
        </FilterField>
        <FilterField label={l("search")} grow>
          <input className={FILTER_INPUT} placeholder={t("searchPlaceholder")} {...bind("q")} />
        </FilterField>
        <FilterField label={t("order")}>
          <select className={FILTER_INPUT} {...bind("order")}>
            <option value="oldest">{t("oldest")}</option>
            <option value="newest">{t("newest")}</option>
          </select>
        </FilterField>
      </FilterForm>

      <ListStatus page={page} empty={t("empty")} />
      {page.isSuccess && page.data.data.length > 0 && (
        <ListTable
          label={t("table")}
          headers={[{ text: t("created") }, { text: t("customer") }, { text: l("product") }, { text: t("principal"), right: true }, { text: t("term") }, { text: l("status") }]}
        >
          {page.data.data.map((p) => (
            <tr key={p.id} data-testid="proposal-row" className="border-t border-slate-100">
              <td className="whitespace-nowrap px-3 py-2">{formatDateTime(p.created_at)}</td>
              <td className="px-3 py-2">
                <Link href={`/proposals/${p.id}?environment=${environment}`} className="font-medium underline">{p.customer.name}</Link>
                <span className="block whitespace-nowrap text-xs text-slate-500">{formatDocument(p.customer.document)}</span>
              </td>
              <td className="px-3 py-2">{labels.product(p.terms.product)}</td>
              <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{formatBRL(p.terms.principal)}</td>
              <td className="whitespace-nowrap px-3 py-2 tabular-nums">{p.terms.term} × {formatBRL(p.terms.installment_amount)}</td>
              <td className="px-3 py-2">{labels.status(p.status)}</td>
            </tr>
          ))}
        </ListTable>
      )}
      <Pager previous={previous} next={next} />
    </div>
  );
}
