"use client";

import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useSearchParams } from "next/navigation";
import { useState, type ChangeEvent, type FormEvent } from "react";
import { panelFetch } from "@/components/credentials/panel-fetch";

// What the panel's lists share: a page of the API's list envelope fetched with its cursor (the cursors of the
// pages before it kept for "Previous"), its loading / error / empty states, and the pager.

export type ListPage<T> = { data: T[]; has_more: boolean; next_cursor: string | null; search_capped?: boolean };

/** Pages of `path?params` keyed by `key` (tenant, environment, filters); `reset()` goes back to the first page, and so
 *  does any change of `key` (a cursor belongs to the list it came from: another environment's would be refused). */
export function usePagedList<T>(key: readonly unknown[], path: string, params: Record<string, string>, options: { refetchInterval?: number } = {}) {
  const keyText = JSON.stringify(key);
  const [state, setState] = useState<{ keyText: string; cursors: string[] }>({ keyText, cursors: [] });
  const cursors = state.keyText === keyText ? state.cursors : [];
  const setCursors = (next: string[]) => setState({ keyText, cursors: next });
  const cursor = cursors.at(-1);
  const search = new URLSearchParams(Object.entries({ ...params, ...(cursor ? { cursor } : {}) }).filter(([, v]) => v !== ""));
  const page = useQuery({ queryKey: [...key, cursor ?? null], queryFn: () => panelFetch<ListPage<T>>(`${path}?${search.toString()}`), refetchInterval: options.refetchInterval });
  return {
    page,
    reset: () => setCursors([]),
    previous: cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : null,
    next: page.data?.has_more && page.data.next_cursor ? () => setCursors([...cursors, page.data!.next_cursor!]) : null,
  };
}

/** A filtered list: the filters being edited (each control `bind`s to one), the ones applied (`apply`, the form's submit,
 *  which also goes back to the first page), and the pages of `path` for the applied ones — keyed by `key(filters)`.
 *  The applied filters live in the page's address too (`?status=…&q=…`): Back, a reload or a shared link (the
 *  dashboard's late contracts) shows the same list. */
export function useFilteredList<T, F extends Record<string, string>>(initial: F, key: (filters: F) => readonly unknown[], path: string, extra: Record<string, string> = {}) {
  const params = useSearchParams();
  const [fromAddress] = useState<F>(() => Object.fromEntries(Object.entries(initial).map(([name, value]) => [name, params.get(name) ?? value])) as F);
  const [draft, setDraft] = useState<F>(fromAddress);
  const [filters, setFilters] = useState<F>(fromAddress);
  const list = usePagedList<T>(key(filters), path, { ...filters, ...extra });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    list.reset();
    setFilters(draft);
    // The history API, not the router: the address changes without the page being rendered again on the server.
    // An emptied filter whose default is not empty stays as `name=` (the queue's "any status" is not its default).
    const kept = new URLSearchParams(Object.entries(draft).filter(([name, value]) => value !== "" || initial[name] !== ""));
    window.history.replaceState(null, "", `${window.location.pathname}${kept.size > 0 ? `?${kept.toString()}` : ""}`);
  };
  /** Value and change handler of a filter control bound to the draft's `name`. */
  const bind = (name: keyof F) => ({
    value: draft[name],
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setDraft({ ...draft, [name]: e.target.value }),
  });
  return { ...list, apply, bind };
}

/** Loading, error (with retry) and empty states of a list. */
export function ListStatus({ page, empty }: { page: UseQueryResult<ListPage<unknown>>; empty: string }) {
  const t = useTranslations("Lists");
  if (page.isPending) return <p className="text-sm text-slate-500">{t("loading")}</p>;
  if (page.isError) {
    return (
      <p role="alert" className="text-sm text-red-600">
        {page.error.message} <button type="button" className="underline" onClick={() => void page.refetch()}>{t("retry")}</button>
      </p>
    );
  }
  // A name search looks at the newest SEARCH_CUSTOMER_LIMIT customers that match (lib/panel/customer-search.ts).
  const capped = page.data.search_capped ? <p role="status" className="text-sm text-amber-800">{t("searchCapped")}</p> : null;
  if (page.data.data.length === 0) return <>{capped}<p className="text-sm text-slate-600">{empty}</p></>;
  return capped;
}

export function Pager({ previous, next }: { previous: (() => void) | null; next: (() => void) | null }) {
  const t = useTranslations("Lists");
  return (
    <div className="flex gap-3 text-sm">
      <button type="button" className="underline disabled:opacity-40" disabled={!previous} onClick={() => previous?.()}>{t("previous")}</button>
      <button type="button" className="underline disabled:opacity-40" disabled={!next} onClick={() => next?.()}>{t("next")}</button>
    </div>
  );
}
