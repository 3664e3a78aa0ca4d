import { getTranslations } from "next-intl/server";
import { AuditLog } from "@/components/audit/audit-log";
import { Forbidden } from "@/components/forbidden";
import { requirePanelUser } from "@/lib/panel/session";
import { canManageCredentials } from "@/lib/tenants/roles";

export default async function Page() {
  const user = await requirePanelUser();
  if (!canManageCredentials(user.role)) return <Forbidden what="auditLog" />;
  const t = await getTranslations("Pages");
  return (
    <section className="max-w-6xl space-y-4">
      <h1 className="text-2xl font-semibold">{t("auditLog")}</h1>
      <p className="max-w-2xl text-sm text-slate-600">{t("auditLogIntro")}</p>
      <AuditLog tenantId={user.tenantId} />
    </section>
  );
}
