"use client";

import { useTranslations } from "next-intl";
import type { FormEvent, ReactNode } from "react";

// The pieces every filtered list screen is built from (proposals, contracts, customers, audit log): the filter form
// with its Apply button, a labelled field, and the table in its own scrolling, focusable region.

export const FILTER_INPUT = "rounded border border-slate-300 px-2 py-1";

export function FilterForm({ onSubmit, children }: { onSubmit: (e: FormEvent) => void; children: ReactNode }) {
  const l = useTranslations("Lists");
  return (
    <form onSubmit={onSubmit} aria-label={l("filters")} className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      {children}
      <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 font-medium text-white">{l("apply")}</button>
    </form>
  );
}

/** A filter's label over its control; `grow` for the search box that takes the remaining width. */
export function FilterField({ label, grow = false, children }: { label: string; grow?: boolean; children: ReactNode }) {
  return (
    <label className={`flex flex-col ${grow ? "min-w-48 flex-1" : ""}`}>
      <span className="font-medium">{label}</span>
      {children}
    </label>
  );
}

/** The table of a list page, its header row from `headers` (`right` for amounts). */
export function ListTable({ label, headers, children }: { label: string; headers: { text: string; right?: boolean }[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label={label}>
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-50 text-xs uppercase text-slate-500">
          <tr>
            {headers.map((h) => <th key={h.text} className={`px-3 py-2 ${h.right ? "text-right" : ""}`}>{h.text}</th>)}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
