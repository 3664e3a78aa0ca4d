"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { panelFetch } from "@/components/credentials/panel-fetch";
import { formatBRL, formatDateTime, formatDocument } from "@/components/format";

// A customer with their proposals and contracts, each linking to its own page.

type File = {
  customer: { id: string; name: string; document: string; kind: string; birth_date: string | null; email: string | null; phone: string | null; monthly_income: number | null; payroll: { type: string } | null };
  proposals: { id: string; status: string; created_at: string; terms: { product: string; principal: number } }[];
  contracts: { id: string; number: string; status: string; principal: number; outstanding_balance: number }[];
};

export function CustomerFile({ id, environment, tenantId }: { id: string; environment: "sandbox" | "production"; tenantId: string }) {
  const file = useQuery({ queryKey: ["customers", tenantId, environment, "file", id], queryFn: () => panelFetch<File>(`/api/panel/customers/${id}?environment=${environment}`) });
  if (file.isPending) return <p className="text-sm text-slate-500">Loading…</p>;
  if (file.isError) return <p role="alert" className="text-sm text-red-600">{file.error.message}</p>;
  const { customer: c, proposals, contracts } = file.data;
  const box = "rounded-lg border border-slate-200 bg-white p-4 text-sm";
  return (
    <div className="space-y-4">
      <h1 className="break-words text-2xl font-semibold">{c.name}</h1>
      <section className={box} aria-label="Customer">
        <p>{formatDocument(c.document)} · {c.kind} · born {c.birth_date ?? "—"}</p>
        <p>{c.email ?? "no e-mail"} · {c.phone ?? "no phone"} · income {c.monthly_income === null ? "not declared" : formatBRL(c.monthly_income)} · payroll {c.payroll?.type ?? "none"}</p>
      </section>
      <section className={box} aria-labelledby="cu-prop">
        <h2 id="cu-prop" className="mb-2 font-semibold">Proposals</h2>
        {proposals.length === 0 && <p className="text-slate-600">None.</p>}
        <ul className="space-y-1">
          {proposals.map((p) => (
            <li key={p.id} data-testid="customer-proposal">
              <Link href={`/proposals/${p.id}?environment=${environment}`} className="underline">{p.id}</Link> · {p.status} · {p.terms.product} · {formatBRL(p.terms.principal)} · {formatDateTime(p.created_at)}
            </li>
          ))}
        </ul>
      </section>
      <section className={box} aria-labelledby="cu-ctr">
        <h2 id="cu-ctr" className="mb-2 font-semibold">Contracts</h2>
        {contracts.length === 0 && <p className="text-slate-600">None.</p>}
        <ul className="space-y-1">
          {contracts.map((k) => (
            <li key={k.id} data-testid="customer-contract">
              <Link href={`/contracts/${k.id}?environment=${environment}`} className="underline">{k.number}</Link> · {k.status} · principal {formatBRL(k.principal)} · outstanding {formatBRL(k.outstanding_balance)}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
