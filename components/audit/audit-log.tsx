"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { formatDateTime } from "@/components/format";
import { auditValueText } from "./audit-value";
import { FILTER_INPUT, FilterField, FilterForm, ListTable } from "@/components/list-parts";
import { ListStatus, Pager, useFilteredList } from "@/components/paged-list";

// The tenant's audit log: filter by action (or its prefix, e.g. "proposal."), actor, environment, target and dates.

type Row = { id: string; at: string; environment: string | null; actor: { type: string; label: string; name: string | null }; action: string; target: { type: string; id: string }; metadata: unknown };
type Filters = { environment: string; action: string; actor: string; target: string; from: string; to: string };
const EMPTY: Filters = { environment: "", action: "", actor: "", target: "", from: "", to: "" };

export function AuditLog({ tenantId }: { tenantId: string }) {
  const { page, previous, next, apply, bind } = useFilteredList<Row, Filters>(EMPTY, (f) => ["audit", tenantId, f], "/api/panel/audit-log");
  const t = useTranslations("Audit");
  const l = useTranslations("Lists");
  const names = useTranslations("Environment.names");
  return (
    <div className="space-y-4">
      <FilterForm onSubmit={apply}>
        <FilterField label={t("action")}>
          <input className={FILTER_INPUT} placeholder="proposal. / api_key.created" {...bind("action")} />
        </FilterField>
        <FilterField label={t("actor")}>
          <input className={FILTER_INPUT} placeholder={t("actorPlaceholder")} {...bind("actor")} />
        </FilterField>
        <FilterField label={t("target")}>
          <input className={FILTER_INPUT} placeholder="prp_…, key_…" {...bind("target")} />
        </FilterField>
        <FilterField label={t("environment")}>
          <select className={FILTER_INPUT} {...bind("environment")}>
            <option value="">{l("any")}</option>
            <option value="sandbox">{names("sandbox")}</option>
            <option value="production">{names("production")}</option>
            <option value="none">{t("tenantWide")}</option>
          </select>
        </FilterField>
        <FilterField label={t("from")}>
          <input type="date" className={FILTER_INPUT} {...bind("from")} />
        </FilterField>
        <FilterField label={t("to")}>
          <input type="date" className={FILTER_INPUT} {...bind("to")} />
        </FilterField>
      </FilterForm>
      <ListStatus page={page} empty={t("empty")} />
      {page.isSuccess && page.data.data.length > 0 && (
        <ListTable label={t("table")} headers={[{ text: t("when") }, { text: t("who") }, { text: t("action") }, { text: t("target") }, { text: t("environment") }, { text: t("details") }]}>
          {page.data.data.map((r) => (
            <tr key={r.id} data-testid="audit-row" className="border-t border-slate-100 align-top">
              <td className="whitespace-nowrap px-3 py-2">{formatDateTime(r.at)}</td>
              <td className="break-all px-3 py-2">
                {r.actor.name ?? r.actor.label}
                <span className="block text-xs text-slate-500">{r.actor.name ? r.actor.label : r.actor.type}</span>
              </td>
              <td className="px-3 py-2"><code>{r.action}</code></td>
              <td className="break-all px-3 py-2 text-xs"><Target type={r.target.type} id={r.target.id} environment={r.environment} /></td>
              <td className="px-3 py-2">{r.environment ? names(r.environment as "sandbox" | "production") : t("tenant")}</td>
              <td className="max-w-xs break-words px-3 py-2 text-xs"><Details metadata={r.metadata} /></td>
            </tr>
          ))}
        </ListTable>
      )}
      <Pager previous={previous} next={next} />
    </div>
  );
}

/** The pages an audited object has in the panel (with its environment), as a link; any other target as text. */
const PAGES: Record<string, string> = { contract: "/contracts", proposal: "/proposals", customer: "/customers" };

function Target({ type, id, environment }: { type: string; id: string; environment: string | null }) {
  const base = PAGES[type];
  if (!base || !environment) return <>{type} {id}</>;
  return <>{type} <Link href={`${base}/${id}?environment=${environment}`} className="underline">{id}</Link></>;
}

/** Metadata as "name: value" lines (./audit-value.ts: amounts in reais at every level). */
function Details({ metadata }: { metadata: unknown }) {
  if (metadata === null || typeof metadata !== "object") return null;
  return (
    <dl data-testid="audit-details">
      {Object.entries(metadata as Record<string, unknown>).map(([name, value]) => (
        <div key={name}>
          <dt className="inline text-slate-500">{name}:</dt> <dd className="inline">{auditValueText(name, value)}</dd>
        </div>
      ))}
    </dl>
  );
}
