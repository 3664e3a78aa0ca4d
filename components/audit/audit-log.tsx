"use client";

import { useTranslations } from "next-intl";
import { formatDateTime } from "@/components/format";
import { ListStatus, Pager, useFilteredList } from "@/components/paged-list";

// The tenant's audit log: filter by action (or its prefix, e.g. "proposal."), actor, environment, target and dates.

type Row = { id: string; at: string; environment: string | null; actor: { type: string; label: string }; action: string; target: { type: string; id: string }; metadata: unknown };
type Filters = { environment: string; action: string; actor: string; target: string; from: string; to: string };
const EMPTY: Filters = { environment: "", action: "", actor: "", target: "", from: "", to: "" };

export function AuditLog({ tenantId }: { tenantId: string }) {
  const { page, previous, next, draft, setDraft, apply } = useFilteredList<Row, Filters>(EMPTY, (f) => ["audit", tenantId, f], "/api/panel/audit-log");
  const field = "rounded border border-slate-300 px-2 py-1";
  const t = useTranslations("Audit");
  const l = useTranslations("Lists");
  const names = useTranslations("Environment.names");
  const text = (name: keyof Filters, label: string, placeholder: string) => (
    <label className="flex flex-col">
      <span className="font-medium">{label}</span>
      <input className={field} value={draft[name]} placeholder={placeholder} onChange={(e) => setDraft({ ...draft, [name]: e.target.value })} />
    </label>
  );
  return (
    <div className="space-y-4">
      <form onSubmit={apply} aria-label={l("filters")} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm">
        {text("action", t("action"), "proposal. / api_key.created")}
        {text("actor", t("actor"), "e-mail, cli:…")}
        {text("target", t("target"), "prp_…, key_…")}
        <label className="flex flex-col">
          <span className="font-medium">{t("environment")}</span>
          <select className={field} value={draft.environment} onChange={(e) => setDraft({ ...draft, environment: e.target.value })}>
            <option value="">{l("any")}</option>
            <option value="sandbox">{names("sandbox")}</option>
            <option value="production">{names("production")}</option>
            <option value="none">{t("tenantWide")}</option>
          </select>
        </label>
        <label className="flex flex-col">
          <span className="font-medium">{t("from")}</span>
          <input type="date" className={field} value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </label>
        <label className="flex flex-col">
          <span className="font-medium">{t("to")}</span>
          <input type="date" className={field} value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </label>
        <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 font-medium text-white">{l("apply")}</button>
      </form>
      <ListStatus page={page} empty={t("empty")} />
      {page.isSuccess && page.data.data.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label={t("table")}>
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs uppercase text-slate-500">
              <tr><th className="px-3 py-2">{t("when")}</th><th className="px-3 py-2">{t("who")}</th><th className="px-3 py-2">{t("action")}</th><th className="px-3 py-2">{t("target")}</th><th className="px-3 py-2">{t("environment")}</th><th className="px-3 py-2">{t("details")}</th></tr>
            </thead>
            <tbody>
              {page.data.data.map((r) => (
                <tr key={r.id} data-testid="audit-row" className="border-t border-slate-100 align-top">
                  <td className="whitespace-nowrap px-3 py-2">{formatDateTime(r.at)}</td>
                  <td className="break-all px-3 py-2">{r.actor.label}<span className="block text-xs text-slate-500">{r.actor.type}</span></td>
                  <td className="px-3 py-2"><code>{r.action}</code></td>
                  <td className="break-all px-3 py-2 text-xs">{r.target.type} {r.target.id}</td>
                  <td className="px-3 py-2">{r.environment ? names(r.environment as "sandbox" | "production") : t("tenant")}</td>
                  <td className="max-w-xs break-all px-3 py-2 font-mono text-xs">{JSON.stringify(r.metadata)}</td>
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
