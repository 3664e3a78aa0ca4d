"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useState } from "react";
import { useCodeLabels } from "@/components/labels";
import { panelFetch } from "@/components/credentials/panel-fetch";
import { formatBRL, formatDate, formatDateTime, formatDocument } from "@/components/format";
import { EraseCustomerForm } from "./erase-form";

// A customer with their proposals and contracts, each linking to its own page.

type File = {
  customer: { id: string; name: string; document: string; kind: string; birth_date: string | null; email: string | null; phone: string | null; monthly_income: number | null; payroll: { type: string } | null };
  proposals: { id: string; status: string; created_at: string; terms: { product: string; principal: number } }[];
  contracts: { id: string; number: string; status: string; principal: number; outstanding_balance: number }[];
  more_proposals: boolean;
  more_contracts: boolean;
};

export function CustomerFile({ id, environment, tenantId, canErase }: { id: string; environment: "sandbox" | "production"; tenantId: string; canErase: boolean }) {
  const t = useTranslations("Customers");
  const labels = useCodeLabels();
  const [erased, setErased] = useState(false);
  const file = useQuery({ queryKey: ["customers", tenantId, environment, "file", id], queryFn: () => panelFetch<File>(`/api/panel/customers/${id}?environment=${environment}`), enabled: !erased });
  if (erased) {
    return (
      <p role="status" className="text-sm">
        {t("erased")} <Link href={`/customers?environment=${environment}`} className="underline">{t("backToList")}</Link>
      </p>
    );
  }
  if (file.isPending) return <p className="text-sm text-slate-500">{t("loading")}</p>;
  if (file.isError) return <p role="alert" className="text-sm text-red-600">{file.error.message}</p>;
  const { customer: c, proposals, contracts, more_proposals, more_contracts } = file.data;
  // The lists, searched by the customer's id (not the CPF: a URL stays in histories and proxy logs), any status, newest
  // first (the file shows the newest only).
  const all = (list: "proposals" | "contracts") => `/${list}?${new URLSearchParams({ q: c.id, status: "", ...(list === "proposals" ? { order: "newest" } : {}), environment })}`;
  const box = "rounded-lg border border-slate-200 bg-white p-4 text-sm";
  return (
    <div className="space-y-4">
      <h1 className="break-words text-2xl font-semibold">{c.name}</h1>
      <section className={box} aria-label={t("customer")}>
        <p>{t("identity", { document: formatDocument(c.document), kind: labels.code(c.kind), born: c.birth_date ? formatDate(c.birth_date) : "—" })}</p>
        <p>{t("contact", { email: c.email ?? t("noEmail"), phone: c.phone ?? t("noPhone"), income: c.monthly_income === null ? t("notDeclared") : formatBRL(c.monthly_income), payroll: c.payroll ? labels.code(c.payroll.type) : t("none") })}</p>
      </section>
      <section className={box} aria-labelledby="cu-prop">
        <h2 id="cu-prop" className="mb-2 font-semibold">{t("proposals")}</h2>
        {proposals.length === 0 && <p className="text-slate-600">{t("noneYet")}</p>}
        <ul className="space-y-1">
          {proposals.map((p) => (
            <li key={p.id} data-testid="customer-proposal">
              <Link href={`/proposals/${p.id}?environment=${environment}`} className="underline">{p.id}</Link> · {labels.status(p.status)} · {labels.product(p.terms.product)} · {formatBRL(p.terms.principal)} · {formatDateTime(p.created_at)}
            </li>
          ))}
        </ul>
        {more_proposals && <p className="mt-2 text-slate-600">{t("moreRows", { count: proposals.length })} <Link href={all("proposals")} className="underline">{t("allProposals")}</Link></p>}
      </section>
      <section className={box} aria-labelledby="cu-ctr">
        <h2 id="cu-ctr" className="mb-2 font-semibold">{t("contracts")}</h2>
        {contracts.length === 0 && <p className="text-slate-600">{t("noneYet")}</p>}
        <ul className="space-y-1">
          {contracts.map((k) => (
            <li key={k.id} data-testid="customer-contract">
              <Link href={`/contracts/${k.id}?environment=${environment}`} className="underline">{k.number}</Link> · {labels.status(k.status)} · {t("contractLine", { principal: formatBRL(k.principal), outstanding: formatBRL(k.outstanding_balance) })}
            </li>
          ))}
        </ul>
        {more_contracts && <p className="mt-2 text-slate-600">{t("moreRows", { count: contracts.length })} <Link href={all("contracts")} className="underline">{t("allContracts")}</Link></p>}
      </section>
      {canErase && proposals.length === 0 && contracts.length === 0 && <EraseCustomerForm customerId={c.id} name={c.name} environment={environment} onErased={() => setErased(true)} />}
    </div>
  );
}
