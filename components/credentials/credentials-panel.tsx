"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { usePanelEnvironment } from "../environment-context";
import { formatDateTime } from "../format";
import { ConfirmButton } from "../webhooks/confirm-button";
import { CreateCredentialForm, type CreateCredentialInput } from "./create-credential-form";
import { credentialKeys } from "./query-keys";
import { panelFetch, type PanelError } from "./panel-fetch";
import { SecretReveal } from "./secret-reveal";

// Settings → API Keys and Settings → OAuth clients: the same screen over two kinds of credential.

type Row = {
  id: string;
  name: string;
  environment: string;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  permissions?: string[];
  scopes?: string[];
  last4?: string;
  client_id?: string;
  secret_last4?: string;
};

type Kind = {
  path: "api-keys" | "oauth-clients";
  secrets: (created: Record<string, string>, keyLabel: string) => { label: string; value: string }[];
  identifier: (row: Row) => string;
};

const KINDS: Record<"api-keys" | "oauth-clients", Kind> = {
  "api-keys": {
    path: "api-keys",
    secrets: (c, keyLabel) => [{ label: keyLabel, value: c.key ?? "" }],
    identifier: (r) => `…${r.last4}`,
  },
  "oauth-clients": {
    path: "oauth-clients",
    secrets: (c) => [
      { label: "client_id", value: c.client_id ?? "" },
      { label: "client_secret", value: c.client_secret ?? "" },
    ],
    identifier: (r) => `${r.client_id} (secret …${r.secret_last4})`,
  },
};

const when = (iso: string | null) => (iso ? formatDateTime(iso) : "—");

export function CredentialsPanel({ kind: kindName, tenantId }: { kind: "api-keys" | "oauth-clients"; tenantId: string }) {
  const kind = KINDS[kindName];
  const t = useTranslations("Credentials");
  const l = useTranslations("Lists");
  const names = useTranslations("Environment.names");
  const { environment } = usePanelEnvironment();
  const isKey = kind.path === "api-keys";
  const endpoint = `/api/panel/${kind.path}`;
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<Record<string, string> | null>(null);
  const list = useQuery({ queryKey: credentialKeys.list(tenantId, kind.path), queryFn: () => panelFetch<{ data: Row[] }>(endpoint) });
  const create = useMutation<Record<string, string>, PanelError, CreateCredentialInput>({
    mutationFn: (input: CreateCredentialInput) => panelFetch<Record<string, string>>(endpoint, { method: "POST", body: input }),
    onSuccess: (data) => {
      setCreated(data);
      // Show the new row at once from the answer (without its secret), then reload the list: a list request
      // already in flight when the key was created may otherwise answer without it.
      const row = Object.fromEntries(Object.entries(data).filter(([name]) => name !== "key" && name !== "client_secret")) as unknown as Row;
      queryClient.setQueryData<{ data: Row[] }>(credentialKeys.list(tenantId, kind.path), (old) => (old ? { data: [row, ...old.data.filter((r) => r.id !== row.id)] } : old));
      void queryClient.invalidateQueries({ queryKey: credentialKeys.list(tenantId, kind.path) });
    },
  });
  const revoke = useMutation<unknown, PanelError, string>({
    mutationFn: (id: string) => panelFetch(`${endpoint}/${id}/revoke`, { method: "POST", body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialKeys.list(tenantId, kind.path) }),
  });

  return (
    <div className="space-y-6">
      {created && (
        <SecretReveal
          title={t(isKey ? "apiKeyCreated" : "oauthClientCreated", { environment: names(created.environment as "sandbox" | "production") })}
          items={kind.secrets(created, t("apiKeyLabel"))}
          onDone={() => setCreated(null)}
        />
      )}
      {/* Keyed by the environment on screen too: switching it in the sidebar starts the form over in that environment. */}
      <CreateCredentialForm key={`${created?.id ?? "new"}:${environment}`} title={t(isKey ? "newApiKey" : "newOauthClient")} submitLabel={t(isKey ? "createApiKey" : "createOauthClient")} onSubmit={(input) => create.mutate(input)} pending={create.isPending} error={create.error} />
      {list.isError && (
        <p role="alert" className="text-red-600">
          {list.error.message} <button type="button" className="underline" onClick={() => void list.refetch()}>{l("retry")}</button>
        </p>
      )}
      {revoke.isError && <p role="alert" className="text-red-600">{t("revokeFailed", { message: revoke.error.message })}</p>}
      {list.isPending && <p className="text-sm text-slate-500">{l("loading")}</p>}
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={t(isKey ? "apiKeyTable" : "oauthClientTable")}>
      <table className="w-full min-w-[48rem] rounded-lg border border-slate-200 bg-white text-left text-sm">
        <thead className="bg-slate-100 text-xs uppercase text-slate-700">
          <tr>
            {[t("name"), t("environment"), t("permissions"), t("key"), t("createdBy"), t("created"), t("lastUsed"), ""].map((h) => (
              <th key={h} className="px-3 py-2">{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {list.data?.data.map((row) => (
            <tr key={row.id} data-testid={`credential-${row.id}`} className="border-t border-slate-100">
              <td className="px-3 py-2 font-medium">{row.name}</td>
              <td className="px-3 py-2">{names(row.environment as "sandbox" | "production")}</td>
              <td className="px-3 py-2">{(row.permissions ?? row.scopes ?? []).join(" ")}</td>
              <td className="px-3 py-2 font-mono text-xs">{kind.identifier(row)}</td>
              <td className="px-3 py-2">{row.created_by}</td>
              <td className="px-3 py-2">{when(row.created_at)}</td>
              <td className="px-3 py-2">{when(row.last_used_at)}</td>
              <td className="px-3 py-2">
                {row.revoked_at ? (
                  <span className="text-slate-500">{t("revoked", { date: when(row.revoked_at) })}</span>
                ) : (
                  <ConfirmButton label={t("revoke")} question={t("revokeQuestion", { name: row.name })} confirmLabel={t("confirmRevoke")} pending={revoke.isPending} onConfirm={() => revoke.mutate(row.id)} />
                )}
              </td>
            </tr>
          ))}
          {list.data?.data.length === 0 && (
            <tr><td colSpan={8} className="px-3 py-6 text-center text-slate-500">{t(isKey ? "noApiKey" : "noOauthClient")}</td></tr>
          )}
        </tbody>
      </table>
      </div>
    </div>
  );
}
