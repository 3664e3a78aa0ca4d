"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { usePanelEnvironment } from "@/components/environment-context";
import { useCodeLabels } from "@/components/labels";
import { FILTER_INPUT, FilterField, FilterForm } from "@/components/list-parts";
import { ListStatus, Pager, useFilteredList } from "@/components/paged-list";
import { formatDateTime, formatDocument } from "@/components/format";

// Customers: search by CPF/CNPJ, id or name, per environment; newest first, cursor pages.

type Row = { id: string; name: string; document: string; kind: string; created_at: string };
type Filters = { q: string };

export function CustomerList({ tenantId }: { tenantId: string }) {
  const { environment } = usePanelEnvironment();
  const { page, previous, next, apply, bind } = useFilteredList<Row, Filters>({ q: "" }, (f) => ["customers", tenantId, environment, "list", f], "/api/panel/customers", { limit: "25", environment });
  const t = useTranslations("Customers");
  const l = useTranslations("Lists");
  const labels = useCodeLabels();
  return (
    <div className="space-y-4">
      <FilterForm onSubmit={apply}>
        <FilterField label={l("search")} grow>
          <input className={FILTER_INPUT} placeholder={t("searchPlaceholder")} {...bind("q")} />
        </FilterField>
      </FilterForm>
      <ListStatus page={page} empty={t("empty")} />
      {page.isSuccess && page.data.data.length > 0 && (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
          {page.data.data.map((c) => (
            <li key={c.id} data-testid="customer-row" className="flex flex-wrap justify-between gap-2 px-3 py-2">
              <Link href={`/customers/${c.id}?environment=${environment}`} className="break-all font-medium underline">{c.name}</Link>
              <span className="text-slate-500">{formatDocument(c.document)} · {labels.code(c.kind)} · {t("since", { date: formatDateTime(c.created_at) })}</span>
            </li>
          ))}
        </ul>
      )}
      <Pager previous={previous} next={next} />
    </div>
  );
}
