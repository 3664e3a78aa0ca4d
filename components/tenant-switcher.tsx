"use client";

import { useRouter } from "next/navigation";
import { panelFetch } from "./credentials/panel-fetch";

export function TenantSwitcher({ active, memberships }: { active: string; memberships: { id: string; name: string }[] }) {
  const router = useRouter();
  if (memberships.length < 2) return <p className="text-sm text-slate-600">{memberships[0]?.name}</p>;
  return (
    <select
      aria-label="Tenant"
      value={active}
      className="w-full rounded border border-slate-300 px-2 py-1 text-sm"
      onChange={async (e) => {
        await panelFetch("/api/panel/active-tenant", { method: "POST", body: { tenant_id: e.target.value } });
        router.refresh();
      }}
    >
      {memberships.map((m) => (
        <option key={m.id} value={m.id}>{m.name}</option>
      ))}
    </select>
  );
}
