"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { formatDateTime } from "@/components/format";
import { useCodeLabels } from "@/components/labels";
import { panelFetch } from "@/components/credentials/panel-fetch";
import { Pager, usePagedList } from "@/components/paged-list";
import { webhookKeys } from "./query-keys";

// One endpoint's delivery log, newest first, 25 a page with a status filter, refreshed every 2 s while open: when, event, status, attempts, last status
// code, response time, next retry; resend; and each attempt's request and response bodies (first 4 KiB).

type Attempt = { number: number; started_at: string; duration_ms: number; status_code: number | null; error: string | null; request_body: string; response_body: string | null };
type Delivery = {
  id: string;
  event_id: string;
  event_type: string;
  status: "pending" | "succeeded" | "failed";
  attempt_count: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  created_at: string;
  attempts?: Attempt[];
};

const STATUS_STYLE = { pending: "text-amber-700", succeeded: "text-green-700", failed: "text-red-700" } as const;

export function DeliveryLog({ tenantId, environment, endpointId }: { tenantId: string; environment: "sandbox" | "production"; endpointId: string }) {
  const queryClient = useQueryClient();
  const key = webhookKeys.deliveries(tenantId, environment, endpointId);
  const [open, setOpen] = useState<string | null>(null);
  const t = useTranslations("Webhooks");
  const l = useTranslations("Lists");
  const labels = useCodeLabels();
  const [status, setStatus] = useState("");
  const list = usePagedList<Delivery>([...key, status], "/api/panel/webhook-deliveries", { environment, endpoint_id: endpointId, limit: "25", status }, { refetchInterval: 2_000 });
  const deliveries = list.page;
  const resend = useMutation({
    mutationFn: (id: string) => panelFetch(`/api/panel/webhook-deliveries/${id}/resend?environment=${environment}`, { method: "POST", body: {} }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: key }),
  });

  return (
    <div className="mt-3 space-y-2 border-t border-slate-100 pt-3">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h3 className="text-sm font-semibold">{t("log")}</h3>
        <label className="text-xs">
          <span className="mr-1">{l("status")}</span>
          <select value={status} onChange={(e) => setStatus(e.target.value)} className="rounded border border-slate-300 px-1 py-0.5">
            <option value="">{l("any")}</option>
            {(["pending", "succeeded", "failed"] as const).map((s) => <option key={s} value={s}>{labels.status(s)}</option>)}
          </select>
        </label>
      </div>
      {deliveries.isPending && <p className="text-sm text-slate-500">{l("loading")}</p>}
      {deliveries.isError && <p role="alert" className="text-sm text-red-600">{deliveries.error.message}</p>}
      {resend.error && <p role="alert" className="text-sm text-red-600">{resend.error.message}</p>}
      {deliveries.isSuccess && deliveries.data.data.length === 0 && <p className="text-sm text-slate-600">{t("noDeliveries")}</p>}
      {deliveries.isSuccess && deliveries.data.data.length > 0 && (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t("deliveries")}>
          <table className="w-full text-left text-xs">
            <thead className="text-slate-500">
              <tr>
                <th className="py-1 pr-3">{t("when")}</th>
                <th className="py-1 pr-3">{t("event")}</th>
                <th className="py-1 pr-3">{l("status")}</th>
                <th className="py-1 pr-3">{t("attempts")}</th>
                <th className="py-1 pr-3">{t("lastCode")}</th>
                <th className="py-1 pr-3">{t("responseTime")}</th>
                <th className="py-1 pr-3">{t("nextRetry")}</th>
                <th className="py-1" />
              </tr>
            </thead>
            <tbody>
              {deliveries.data.data.map((d) => (
                <DeliveryRow key={d.id} delivery={d} tenantId={tenantId} environment={environment} expanded={open === d.id} onToggle={() => setOpen(open === d.id ? null : d.id)} onResend={() => resend.mutate(d.id)} resending={resend.isPending} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager previous={list.previous} next={list.next} />
    </div>
  );
}

function DeliveryRow({ delivery: d, tenantId, environment, expanded, onToggle, onResend, resending }: { delivery: Delivery; tenantId: string; environment: "sandbox" | "production"; expanded: boolean; onToggle: () => void; onResend: () => void; resending: boolean }) {
  const t = useTranslations("Webhooks");
  const l = useTranslations("Lists");
  const labels = useCodeLabels();
  const detail = useQuery({
    queryKey: webhookKeys.delivery(tenantId, environment, d.id, `${d.attempt_count}:${d.status}`),
    queryFn: () => panelFetch<Delivery>(`/api/panel/webhook-deliveries/${d.id}?environment=${environment}`),
    enabled: expanded,
  });
  return (
    <>
      <tr data-testid="delivery-row" className="border-t border-slate-100 align-top">
        <td className="whitespace-nowrap py-1 pr-3">{formatDateTime(d.created_at)}</td>
        <td className="py-1 pr-3 font-mono">{d.event_type}</td>
        <td className={`py-1 pr-3 font-medium ${STATUS_STYLE[d.status]}`}>{labels.status(d.status)}</td>
        <td className="py-1 pr-3">{d.attempt_count}</td>
        <td className="py-1 pr-3">{d.last_status_code ?? (d.last_error ? "—" : "")}</td>
        <td className="py-1 pr-3">{d.last_duration_ms === null ? "" : `${d.last_duration_ms} ms`}</td>
        <td className="py-1 pr-3">{d.next_attempt_at ? formatDateTime(d.next_attempt_at) : ""}</td>
        <td className="flex gap-3 py-1">
          <button type="button" className="underline" aria-expanded={expanded} onClick={onToggle}>{t("attempts")}</button>
          <button type="button" className="underline disabled:opacity-50" disabled={resending} onClick={onResend}>{t("resend")}</button>
        </td>
      </tr>
      {expanded && (
        <tr>
          <td colSpan={8} className="pb-3">
            {detail.isPending && <p className="text-slate-500">{l("loading")}</p>}
            {detail.data?.attempts?.map((a) => (
              <div key={a.number} data-testid="attempt" className="mt-2 rounded border border-slate-200 p-2">
                <p>
                  {t("attempt", { number: a.number, date: formatDateTime(a.started_at), code: a.status_code ?? t("noAnswer"), ms: a.duration_ms })}{a.error ? ` · ${a.error}` : ""}
                </p>
                <p className="mt-1 font-semibold">{t("requestBody")}</p>
                <pre tabIndex={0} className="max-h-40 overflow-auto whitespace-pre-wrap break-all bg-slate-50 p-1">{a.request_body}</pre>
                <p className="mt-1 font-semibold">{t("responseBody")}</p>
                <pre tabIndex={0} className="max-h-40 overflow-auto whitespace-pre-wrap break-all bg-slate-50 p-1">{a.response_body ?? ""}</pre>
              </div>
            ))}
          </td>
        </tr>
      )}
    </>
  );
}
