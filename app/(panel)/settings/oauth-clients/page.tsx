import { getTranslations } from "next-intl/server";
import { CredentialsPanel } from "@/components/credentials/credentials-panel";
import { Forbidden } from "@/components/forbidden";
import { requirePanelUser } from "@/lib/panel/session";
import { canManageCredentials } from "@/lib/tenants/roles";

export default async function Page() {
  const user = await requirePanelUser();
  if (!canManageCredentials(user.role)) return <Forbidden />;
  const t = await getTranslations("Pages");
  return (
    <section className="max-w-5xl space-y-4">
      <h1 className="text-2xl font-semibold">{t("oauthClients")}</h1>
      <CredentialsPanel kind="oauth-clients" tenantId={user.tenantId} />
    </section>
  );
}
