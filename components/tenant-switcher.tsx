"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { panelFetch } from "./credentials/panel-fetch";

// The active tenant among the user's memberships. The panel's frame is keyed by tenant and every query key holds
// the tenant, so after a switch nothing of the previous tenant stays on screen.
export function TenantSwitcher({ active, memberships }: { active: string; memberships: { id: string; name: string }[] }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const t = useTranslations("Nav");
  if (memberships.length < 2) return <p className="break-words text-sm text-slate-600">{memberships[0]?.name}</p>;
  return (
    <>
      <select
        aria-label={t("tenant")}
        value={active}
        className="w-full rounded border border-slate-300 px-2 py-1 text-sm"
        onChange={async (e) => {
          setError(null);
          try {
            await panelFetch("/api/panel/active-tenant", { method: "POST", body: { tenant_id: e.target.value } });
            router.refresh();
          } catch (err) {
            setError(err instanceof Error ? err.message : String(err));
          }
        }}
      >
        {memberships.map((m) => (
          <option key={m.id} value={m.id}>{m.name}</option>
        ))}
      </select>
      {error && <p role="alert" className="mt-1 text-xs text-red-600">{error}</p>}
    </>
  );
}
