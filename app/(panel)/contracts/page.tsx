import { getTranslations } from "next-intl/server";
import { ContractList } from "@/components/contracts/contract-list";
import { requirePanelUser } from "@/lib/panel/session";

export default async function Page() {
  const user = await requirePanelUser();
  const t = await getTranslations("Pages");
  return (
    <section className="max-w-6xl space-y-4">
      <h1 className="text-2xl font-semibold">{t("contracts")}</h1>
      <ContractList tenantId={user.tenantId} />
    </section>
  );
}
