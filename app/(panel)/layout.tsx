import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { EnvironmentBanner, EnvironmentSwitch, PanelEnvironmentProvider } from "@/components/environment-context";
import { LanguageSwitch } from "@/components/language-switch";
import { NavLink } from "@/components/nav-link";
import { ScreenTenant } from "@/components/screen-tenant";
import { SidebarMenu } from "@/components/sidebar-menu";
import { SignOutButton } from "@/components/sign-out-button";
import { TenantSwitcher } from "@/components/tenant-switcher";
import { currentPanelEnvironment, requirePanelUser } from "@/lib/panel/session";
import { canManageCredentials } from "@/lib/tenants/roles";

export const dynamic = "force-dynamic";

// The panel's frame: the sidebar (below 768 px a top bar whose content folds behind a Menu button), the environment's
// accent strip and badge, the page.
// Keyed by tenant: switching tenant remounts every screen, so nothing of the previous tenant stays on screen.
export default async function PanelLayout({ children }: { children: ReactNode }) {
  const user = await requirePanelUser();
  const manage = canManageCredentials(user.role);
  const t = await getTranslations("Nav");
  const roles = await getTranslations("Common.roles");
  return (
    <PanelEnvironmentProvider initial={await currentPanelEnvironment()}>
      <ScreenTenant id={user.tenantId} />
      <div className="flex min-h-screen flex-col md:flex-row">
        <aside className="relative w-full border-b border-slate-200 bg-white p-4 md:w-60 md:shrink-0 md:border-b-0 md:border-r">
          <p className="font-semibold md:mb-4">Credit Platform</p>
          <SidebarMenu label={t("menu")} closeLabel={t("closeMenu")}>
            <TenantSwitcher active={user.tenantId} memberships={user.memberships.map((m) => ({ id: m.tenantId, name: m.tenantName }))} />
            <EnvironmentSwitch />
            <nav aria-label={t("panel")} className="mt-4 flex flex-wrap gap-1 text-sm md:block md:space-y-1">
              <NavLink href="/">{t("overview")}</NavLink>
              <NavLink href="/proposals">{t("proposals")}</NavLink>
              <NavLink href="/contracts">{t("contracts")}</NavLink>
              <NavLink href="/customers">{t("customers")}</NavLink>
              <a href="/docs" className="block rounded px-2 py-1 hover:bg-slate-100">{t("apiReference")}</a>
              {manage && (
                <>
                  <p className="w-full px-2 pt-3 text-xs font-semibold uppercase text-slate-500">{t("settings")}</p>
                  <NavLink href="/settings/api-keys">{t("apiKeys")}</NavLink>
                  <NavLink href="/settings/oauth-clients">{t("oauthClients")}</NavLink>
                  <NavLink href="/settings/collection-account">{t("collectionAccount")}</NavLink>
                  <NavLink href="/settings/webhooks">{t("webhooks")}</NavLink>
                  <NavLink href="/settings/members">{t("members")}</NavLink>
                  <NavLink href="/settings/audit-log">{t("auditLog")}</NavLink>
                </>
              )}
            </nav>
            <div className="mt-6 border-t border-slate-100 pt-4 text-xs text-slate-500 md:mt-8">
              <p className="break-all">{user.email}</p>
              <p className="mb-2">{t("role", { role: roles(user.role) })}</p>
              <div className="-mx-2 mb-2 text-sm text-slate-900">
                <NavLink href="/settings/account">{t("account")}</NavLink>
              </div>
              <SignOutButton label={t("signOut")} failed={t.raw("signOutFailed") as string} />
              <LanguageSwitch />
            </div>
          </SidebarMenu>
        </aside>
        <div className="min-w-0 flex-1">
          <EnvironmentBanner />
          <main key={user.tenantId} className="p-4 md:px-8 md:pb-8 md:pt-2">{children}</main>
        </div>
      </div>
    </PanelEnvironmentProvider>
  );
}
