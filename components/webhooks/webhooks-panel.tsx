"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { formatDateTime } from "@/components/format";
import { panelFetch, PanelError } from "@/components/credentials/panel-fetch";
import { useIdempotencyKeys } from "@/components/idempotency-keys";
import { SecretReveal } from "@/components/credentials/secret-reveal";
import { usePanelEnvironment } from "@/components/environment-context";
import { SUBSCRIBABLE_EVENT_NAMES } from "@/lib/webhooks/event-names";
import { ConfirmButton } from "./confirm-button";
import { DeliveryLog } from "./delivery-log";
import { RecoverForm } from "./recover-form";
import { webhookKeys } from "./query-keys";

// Settings → Webhooks: the environment's endpoints (add, copy the secret once, rotate, enable/disable, test,
// recover missed events, delete) and each endpoint's delivery log. The same services and rules as /v1/webhook-endpoints.

type Environment = "sandbox" | "production";
export type Endpoint = {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  disabled_reason: "manual" | "gone" | "failing" | null;
  failing_since: string | null;
  previous_secret_expires_at: string | null;
};
type WithSecret = Endpoint & { secret: string };

const DISABLED_BECAUSE = { manual: "disabledManual", gone: "disabledGone", failing: "disabledFailing" } as const;

export function WebhooksPanel({ tenantId }: { tenantId: string }) {
  const { environment } = usePanelEnvironment();
  // Remounted per environment: a secret shown, a selection or an error of the other environment never stays on screen.
  return <EnvironmentWebhooks key={environment} tenantId={tenantId} environment={environment} />;
}

function EnvironmentWebhooks({ tenantId, environment }: { tenantId: string; environment: Environment }) {
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const t = useTranslations("Webhooks");
  const l = useTranslations("Lists");
  const names = useTranslations("Environment.names");
  const queryClient = useQueryClient();
  const key = webhookKeys.endpoints(tenantId, environment);
  const api = (path: string) => `/api/panel/${path}${path.includes("?") ? "&" : "?"}environment=${environment}`;
  const endpoints = useQuery({ queryKey: key, queryFn: () => panelFetch<{ data: Endpoint[] }>(api("webhook-endpoints")).then((r) => r.data) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const createKeys = useIdempotencyKeys(); // a click sent again after a lost answer gets the first endpoint (and its secret)
  const create = useMutation({
    mutationFn: (body: { url: string; event_types: string[]; description?: string }) =>
      panelFetch<WithSecret>(api("webhook-endpoints"), { method: "POST", body, idempotencyKey: createKeys.keyFor(body) }),
    onSuccess: (made) => {
      createKeys.settled();
      setSecret({ title: t("endpointAdded", { url: made.url }), value: made.secret });
      setSelected(made.id);
      void refresh();
    },
  });
  const change = useMutation({
    mutationFn: ({ id, body }: { id: string; body: Record<string, unknown> }) => panelFetch<Endpoint>(api(`webhook-endpoints/${id}`), { method: "PATCH", body }),
    onSuccess: () => void refresh(),
  });
  const rotate = useMutation({
    // While an old secret is still in its grace period a second one cannot start (the API's 409): rotating then drops
    // both old secrets at once, and the question says so.
    mutationFn: ({ id, dropOld }: { id: string; dropOld: boolean }) =>
      panelFetch<WithSecret>(api(`webhook-endpoints/${id}/rotate-secret`), { method: "POST", body: dropOld ? { grace_period_seconds: 0 } : {} }),
    onSuccess: (made) => {
      setSecret({ title: t("newSecret", { url: made.url }), value: made.secret });
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => panelFetch(api(`webhook-endpoints/${id}`), { method: "DELETE", body: {} }),
    onSuccess: (_, id) => {
      if (selected === id) setSelected(null);
      void refresh();
    },
  });
  const test = useMutation({
    mutationFn: (id: string) => panelFetch(api(`webhook-endpoints/${id}/test`), { method: "POST", body: {} }),
    onSuccess: (_, id) => {
      setSelected(id);
      void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(tenantId, environment, id) });
    },
  });
  const actionError = [change, rotate, remove, test].find((m) => m.error)?.error;
  const list = endpoints.data ?? [];
  const notices = list.filter((e) => e.disabled_reason === "gone" || e.disabled_reason === "failing");

  return (
    <div className="space-y-6">
      {notices.map((e) => (
        <p key={e.id} role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-800">
          {t.rich("notice", { url: e.url, reason: t(DISABLED_BECAUSE[e.disabled_reason!]), b: (chunks) => <strong className="break-all">{chunks}</strong> })}
        </p>
      ))}

      {secret && <SecretReveal title={secret.title} items={[{ label: t("signingSecret"), value: secret.value }]} onDone={() => setSecret(null)} />}

      <AddEndpointForm key={`${environment}:${create.isSuccess ? create.data.id : "new"}`} environment={environment} pending={create.isPending} error={create.error} onSubmit={(body) => create.mutate(body)} />

      <section aria-labelledby="endpoints-heading" className="space-y-2">
        <h2 id="endpoints-heading" className="text-lg font-semibold">{t("endpoints", { environment: names(environment) })}</h2>
        {endpoints.isPending && <p className="text-sm text-slate-500">{l("loading")}</p>}
        {endpoints.isError && (
          <p role="alert" className="text-sm text-red-600">
            {endpoints.error.message} <button type="button" className="underline" onClick={() => void endpoints.refetch()}>{l("retry")}</button>
          </p>
        )}
        {endpoints.isSuccess && list.length === 0 && <p className="text-sm text-slate-600">{t("noEndpoints", { environment: names(environment) })}</p>}
        {actionError && <p role="alert" className="text-sm text-red-600">{actionError.message}</p>}
        <ul className="space-y-2">
          {list.map((e) => (
            <li key={e.id} data-testid="endpoint-row" className={`rounded-lg border bg-white p-3 ${selected === e.id ? "border-slate-900" : "border-slate-200"}`}>
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <div className="min-w-0">
                  <p className="break-all font-mono text-sm">{e.url}</p>
                  <p className="text-xs text-slate-500">{e.description ? `${e.description} · ` : ""}{e.event_types.includes("*") ? t("allEvents") : e.event_types.join(", ")}</p>
                  <p className="text-xs">
                    {e.enabled ? <span className="text-green-700">{t("enabled")}</span> : <span className="text-red-700">{t(DISABLED_BECAUSE[e.disabled_reason ?? "manual"])}</span>}
                    {e.failing_since && e.enabled && <span className="text-amber-700">{t("failingSince", { date: formatDateTime(e.failing_since) })}</span>}
                    {e.previous_secret_expires_at && <span className="text-slate-500">{t("oldSecret", { date: formatDateTime(e.previous_secret_expires_at) })}</span>}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-3">
                  <button type="button" className="text-sm underline" aria-pressed={selected === e.id} onClick={() => setSelected(selected === e.id ? null : e.id)}>{t("deliveries")}</button>
                  <button type="button" className="text-sm underline disabled:opacity-50" disabled={!e.enabled || test.isPending} onClick={() => test.mutate(e.id)}>{t("sendTest")}</button>
                  <button type="button" className="text-sm underline" onClick={() => change.mutate({ id: e.id, body: { enabled: !e.enabled } })}>{e.enabled ? t("disable") : t("enable")}</button>
                  <RecoverForm
                    url={api(`webhook-endpoints/${e.id}/recover`)}
                    disabled={!e.enabled}
                    onRecovered={() => {
                      setSelected(e.id);
                      void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(tenantId, environment, e.id) });
                    }}
                  />
                  {(() => {
                    const dropOld = e.previous_secret_expires_at !== null && new Date(e.previous_secret_expires_at).getTime() > Date.now();
                    const question = dropOld ? t("rotateDropQuestion", { date: formatDateTime(e.previous_secret_expires_at!) }) : t("rotateQuestion");
                    return <ConfirmButton label={t("rotate")} question={question} confirmLabel={t("confirmRotate")} danger={dropOld} pending={rotate.isPending} onConfirm={() => rotate.mutate({ id: e.id, dropOld })} />;
                  })()}
                  <ConfirmButton label={t("delete")} question={t("deleteQuestion", { url: e.url })} confirmLabel={t("confirmDelete")} pending={remove.isPending} onConfirm={() => remove.mutate(e.id)} />
                </div>
              </div>
              {selected === e.id && <DeliveryLog tenantId={tenantId} environment={environment} endpointId={e.id} />}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function AddEndpointForm({ environment, pending, error, onSubmit }: { environment: Environment; pending: boolean; error: Error | null; onSubmit: (body: { url: string; event_types: string[]; description?: string }) => void }) {
  const [url, setUrl] = useState("");
  const t = useTranslations("Webhooks");
  const [description, setDescription] = useState("");
  const [all, setAll] = useState(true);
  const [types, setTypes] = useState<string[]>([]);
  const fieldError = (name: string) => (error instanceof PanelError ? error.errors.find((x) => x.param === name || x.param.startsWith(`${name}.`))?.message : undefined);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit({ url, event_types: all ? ["*"] : types, ...(description.trim() ? { description } : {}) });
  };
  return (
    <form onSubmit={submit} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm">
      <h2 className="text-lg font-semibold">{t("add")}</h2>
      <label className="block">
        <span className="mb-1 block font-medium">{t("url")}</span>
        <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder={environment === "production" ? "https://hooks.example.com.br/credit" : t("urlPlaceholder")} className="w-full rounded border border-slate-300 px-3 py-2" />
        {fieldError("url") && <span role="alert" className="block text-xs text-red-600">{fieldError("url")}</span>}
      </label>
      <label className="block">
        <span className="mb-1 block font-medium">{t("description")}</span>
        <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} className="w-full rounded border border-slate-300 px-3 py-2" />
      </label>
      <fieldset>
        <legend className="mb-1 font-medium">{t("events")}</legend>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          {t("allLater")}
        </label>
        {!all && (
          <div className="mt-2 grid grid-cols-1 gap-1 sm:grid-cols-2">
            {SUBSCRIBABLE_EVENT_NAMES.map((name) => (
              <label key={name} className="flex items-center gap-2 font-mono text-xs">
                <input type="checkbox" checked={types.includes(name)} onChange={(e) => setTypes(e.target.checked ? [...types, name] : types.filter((t) => t !== name))} />
                {name}
              </label>
            ))}
          </div>
        )}
        {fieldError("event_types") && <span role="alert" className="block text-xs text-red-600">{fieldError("event_types")}</span>}
      </fieldset>
      {error && !fieldError("url") && !fieldError("event_types") && <p role="alert" className="text-red-600">{error.message}</p>}
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-2 font-medium text-white disabled:opacity-50">
        {pending ? t("adding") : t("addEndpoint")}
      </button>
    </form>
  );
}
