import { getTranslations } from "next-intl/server";
import { DashboardPanel } from "@/components/dashboard/dashboard-panel";
import { baseUrlOf } from "@/lib/api/environment";
import { requirePanelUser } from "@/lib/panel/session";
import { API_VERSION } from "@/lib/version";

export default async function OverviewPage() {
  const user = await requirePanelUser();
  const t = await getTranslations("Overview");
  return (
    <section className="max-w-5xl space-y-6">
      <h1 className="text-2xl font-semibold">{user.tenantName}</h1>
      <DashboardPanel tenantId={user.tenantId} />
      <h2 className="text-lg font-semibold">{t("firstCall")}</h2>
      <dl className="grid grid-cols-1 gap-y-1 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-[12rem_1fr] sm:gap-y-2">
        <dt className="text-slate-500">{t("tenantId")}</dt>
        <dd className="break-all"><code data-testid="tenant-id">{user.tenantId}</code></dd>
        <dt className="text-slate-500">{t("sandboxUrl")}</dt>
        <dd><code>{baseUrlOf("sandbox")}/v1</code></dd>
        <dt className="text-slate-500">{t("productionUrl")}</dt>
        <dd><code>{baseUrlOf("production")}/v1</code></dd>
        <dt className="text-slate-500">{t("apiVersion")}</dt>
        <dd>{API_VERSION}</dd>
      </dl>
      <pre tabIndex={0} aria-label={t("curlLabel")} className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs text-slate-100">
{`curl ${baseUrlOf("sandbox")}/v1/health \\
  -H "Authorization: Bearer <API_KEY>" \\
  -H "X-Tenant-Id: ${user.tenantId}"`}
      </pre>
    </section>
  );
}
