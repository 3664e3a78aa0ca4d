import { getTranslations } from "next-intl/server";
import { CustomerList } from "@/components/customers/customer-list";
import { requirePanelUser } from "@/lib/panel/session";

export default async function Page() {
  const user = await requirePanelUser();
  const t = await getTranslations("Pages");
  return (
    <section className="max-w-6xl space-y-4">
      <h1 className="text-2xl font-semibold">{t("customers")}</h1>
      <CustomerList tenantId={user.tenantId} />
    </section>
  );
}
