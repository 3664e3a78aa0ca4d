import { AuditLog } from "@/components/audit/audit-log";
import { Forbidden } from "@/components/forbidden";
import { currentPanelUser } from "@/lib/panel/session";
import { canManageCredentials } from "@/lib/tenants/roles";

export default async function Page() {
  const user = (await currentPanelUser())!;
  if (!canManageCredentials(user.role)) return <Forbidden what="the audit log" />;
  return (
    <section className="max-w-6xl space-y-4">
      <h1 className="text-2xl font-semibold">Settings → Audit log</h1>
      <p className="max-w-2xl text-sm text-slate-600">Who did what and when, from the panel, the API and the CLI. Rows are written in the same transaction as the change they record.</p>
      <AuditLog tenantId={user.tenantId} />
    </section>
  );
}
