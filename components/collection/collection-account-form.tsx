"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { formatDateTime, formatDocument } from "@/components/format";
import { panelFetch, PanelError } from "@/components/credentials/panel-fetch";
import { usePanelEnvironment } from "@/components/environment-context";

// Settings → Collection account: where the tenant's borrowers pay, per environment (the same rules as
// PUT /v1/collection-account). The sandbox shows the shared default until the tenant sets its own.

type Environment = "sandbox" | "production";
type Account = {
  bank_code: string;
  agreement: string;
  wallet: string;
  beneficiary_name: string;
  beneficiary_document: string;
  city: string;
  pix_location_base: string;
  shared_default?: boolean;
  updated_at?: string | null;
};
const EMPTY: Account = { bank_code: "001", agreement: "", wallet: "17", beneficiary_name: "", beneficiary_document: "", city: "", pix_location_base: "" };
const FIELDS: { name: "agreement" | "beneficiary_name" | "beneficiary_document" | "city" | "pix_location_base"; hint?: "agreementHint" | "pixHint" }[] = [
  { name: "agreement", hint: "agreementHint" },
  { name: "beneficiary_name" },
  { name: "beneficiary_document" },
  { name: "city" },
  { name: "pix_location_base", hint: "pixHint" },
];

export function CollectionAccountForm({ tenantId }: { tenantId: string }) {
  const { environment } = usePanelEnvironment();
  return <EnvironmentAccountForm key={environment} tenantId={tenantId} environment={environment} />;
}

function EnvironmentAccountForm({ tenantId, environment }: { tenantId: string; environment: Environment }) {
  const queryClient = useQueryClient();
  const t = useTranslations("Collection");
  const names = useTranslations("Environment.names");
  const key = ["collection-account", tenantId, environment];
  const current = useQuery({
    queryKey: key,
    queryFn: () => panelFetch<Account | null>(`/api/panel/collection-account?environment=${environment}`),
  });
  const save = useMutation({
    mutationFn: (account: Account) =>
      panelFetch<Account>("/api/panel/collection-account", {
        method: "PUT",
        body: { environment, bank_code: account.bank_code, agreement: account.agreement, wallet: account.wallet, beneficiary_name: account.beneficiary_name, beneficiary_document: account.beneficiary_document, city: account.city, pix_location_base: account.pix_location_base, expected_updated_at: current.data && !current.data.shared_default ? (current.data.updated_at ?? null) : null },
      }),
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
  const fieldError = (name: string) => (save.error instanceof PanelError ? save.error.errors.find((x) => x.param === name)?.message : undefined);

  return (
    <div className="max-w-2xl space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="font-medium">{t("accountFor", { environment: names(environment) })}</h2>
      <p data-testid="account-state" className="text-sm text-slate-600">
        {current.isPending
          ? t("loading")
          : current.data === null
            ? t("none")
            : current.data?.shared_default
              ? t("shared")
              : t("saved", { date: current.data?.updated_at ? formatDateTime(current.data.updated_at) : "" })}
      </p>
      {!current.isPending && (
        <AccountFields key={`${environment}:${current.data?.updated_at ?? "none"}`} initial={current.data && !current.data.shared_default ? { ...EMPTY, ...current.data, beneficiary_document: formatDocument(current.data.beneficiary_document) } : EMPTY} onSubmit={(account) => save.mutate(account)} fieldError={fieldError} />
      )}
      {save.error && <p role="alert" className="text-sm text-red-600">{save.error.message}</p>}
      {save.isSuccess && <p role="status" className="text-sm text-green-700">{t("savedFor", { environment: names(environment) })}</p>}
      {save.isPending && <p className="text-sm text-slate-500">{t("saving")}</p>}
    </div>
  );
}

/** The editable fields, initialised from what was loaded (remounted when the environment or the saved account changes). */
function AccountFields({ initial, onSubmit, fieldError }: { initial: Account; onSubmit: (account: Account) => void; fieldError: (name: string) => string | undefined }) {
  const [form, setForm] = useState<Account>(initial);
  const t = useTranslations("Collection");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(form);
  };
  return (
    <form method="post" onSubmit={submit} className="space-y-4">
      <div className="grid grid-cols-1 gap-4 text-sm sm:grid-cols-2">
          <label className="block">
            <span className="mb-1 block font-medium">{t("bank")}</span>
            <select value={form.bank_code} onChange={(e) => setForm({ ...form, bank_code: e.target.value })} className="w-full rounded border border-slate-300 px-3 py-2">
              <option value="001">001 — Banco do Brasil</option>
            </select>
          </label>
          <label className="block">
            <span className="mb-1 block font-medium">{t("wallet")}</span>
            <select value={form.wallet} onChange={(e) => setForm({ ...form, wallet: e.target.value })} className="w-full rounded border border-slate-300 px-3 py-2">
              <option value="17">17</option>
              <option value="18">18</option>
            </select>
          </label>
          {FIELDS.map((f) => (
            <label key={f.name} className="block">
              <span className="mb-1 block font-medium">{t(f.name)}</span>
              <input value={String(form[f.name] ?? "")} onChange={(e) => setForm({ ...form, [f.name]: e.target.value })} required className="w-full rounded border border-slate-300 px-3 py-2" />
              {f.hint && <span className="text-xs text-slate-500">{t(f.hint)}</span>}
              {fieldError(f.name) && <span role="alert" className="block text-xs text-red-600">{fieldError(f.name)}</span>}
            </label>
          ))}
        </div>
      <button type="submit" className="rounded bg-slate-900 px-3 py-2 text-sm font-medium text-white">
        {t("save")}
      </button>
    </form>
  );
}
