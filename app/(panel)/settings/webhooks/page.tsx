import { getTranslations } from "next-intl/server";
import { Forbidden } from "@/components/forbidden";
import { WebhooksPanel } from "@/components/webhooks/webhooks-panel";
import { requirePanelUser } from "@/lib/panel/session";
import { canManageCredentials } from "@/lib/tenants/roles";

export default async function Page() {
  const user = await requirePanelUser();
  if (!canManageCredentials(user.role)) return <Forbidden what="webhooks" />;
  const t = await getTranslations("Pages");
  return (
    <section className="max-w-5xl space-y-4">
      <h1 className="text-2xl font-semibold">{t("webhooks")}</h1>
      <p className="max-w-2xl text-sm text-slate-600">{t("webhooksIntro")}</p>
      <WebhooksPanel tenantId={user.tenantId} />
    </section>
  );
}
