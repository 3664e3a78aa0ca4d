import { DashboardPanel } from "@/components/dashboard/dashboard-panel";
import { baseUrlOf } from "@/lib/api/environment";
import { currentPanelUser } from "@/lib/panel/session";
import { API_VERSION } from "@/lib/version";

export default async function OverviewPage() {
  const user = (await currentPanelUser())!;
  return (
    <section className="max-w-5xl space-y-6">
      <h1 className="text-2xl font-semibold">{user.tenantName}</h1>
      <DashboardPanel tenantId={user.tenantId} />
      <h2 className="text-lg font-semibold">Your first API call</h2>
      <dl className="grid grid-cols-1 gap-y-1 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-[12rem_1fr] sm:gap-y-2">
        <dt className="text-slate-500">Tenant id (X-Tenant-Id)</dt>
        <dd className="break-all"><code data-testid="tenant-id">{user.tenantId}</code></dd>
        <dt className="text-slate-500">Sandbox base URL</dt>
        <dd><code>{baseUrlOf("sandbox")}/v1</code></dd>
        <dt className="text-slate-500">Production base URL</dt>
        <dd><code>{baseUrlOf("production")}/v1</code></dd>
        <dt className="text-slate-500">API version</dt>
        <dd>{API_VERSION}</dd>
      </dl>
      <pre tabIndex={0} aria-label="First API call with curl" className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-xs text-slate-100">
{`curl ${baseUrlOf("sandbox")}/v1/health \\
  -H "Authorization: Bearer <API_KEY>" \\
  -H "X-Tenant-Id: ${user.tenantId}"`}
      </pre>
    </section>
  );
}
