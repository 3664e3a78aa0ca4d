import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { NavLink } from "@/components/nav-link";
import { SignOutButton } from "@/components/sign-out-button";
import { TenantSwitcher } from "@/components/tenant-switcher";
import { currentPanelUser } from "@/lib/panel/session";
import { canManageCredentials } from "@/lib/tenants/roles";

export const dynamic = "force-dynamic";

export default async function PanelLayout({ children }: { children: ReactNode }) {
  const user = await currentPanelUser();
  if (!user) redirect("/login");
  const manage = canManageCredentials(user.role);
  return (
    <div className="flex min-h-screen">
      <aside className="w-60 border-r border-slate-200 bg-white p-4">
        <p className="mb-4 font-semibold">Credit Platform</p>
        <TenantSwitcher active={user.tenantId} memberships={user.memberships.map((m) => ({ id: m.tenantId, name: m.tenantName }))} />
        <nav className="mt-4 space-y-1 text-sm">
          <NavLink href="/">Overview</NavLink>
          <NavLink href="/proposals">Proposals</NavLink>
          <NavLink href="/contracts">Contracts</NavLink>
          <NavLink href="/customers">Customers</NavLink>
          <a href="/docs" className="block rounded px-2 py-1 hover:bg-slate-100">API reference</a>
          {manage && (
            <>
              <p className="px-2 pt-3 text-xs font-semibold uppercase text-slate-400">Settings</p>
              <NavLink href="/settings/api-keys">API Keys</NavLink>
              <NavLink href="/settings/oauth-clients">OAuth clients</NavLink>
              <NavLink href="/settings/collection-account">Collection account</NavLink>
              <NavLink href="/settings/webhooks">Webhooks</NavLink>
              <NavLink href="/settings/members">Members</NavLink>
              <NavLink href="/settings/audit-log">Audit log</NavLink>
            </>
          )}
        </nav>
        <div className="mt-8 border-t border-slate-100 pt-4 text-xs text-slate-500">
          <p>{user.email}</p>
          <p className="mb-2">Role: {user.role}</p>
          <SignOutButton />
        </div>
      </aside>
      <main className="flex-1 p-8">{children}</main>
    </div>
  );
}
