import { PageEnvironment } from "@/components/environment-context";
import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { CustomerFile } from "@/components/customers/customer-file";
import { environmentParam } from "@/lib/panel/environment-param";
import { requirePanelUser } from "@/lib/panel/session";
import { canEraseCustomers } from "@/lib/tenants/roles";

// One customer with their proposals and contracts (?environment=sandbox|production).
export default async function Page({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ environment?: string }> }) {
  const user = await requirePanelUser();
  const nav = await getTranslations("Nav");
  const { id } = await params;
  const environment = environmentParam((await searchParams).environment);
  return (
    <section className="max-w-5xl space-y-4">
      <PageEnvironment environment={environment} listHref="/customers" />
      <Link href="/customers" className="text-sm underline">{nav("backToCustomers")}</Link>
      <CustomerFile id={id} environment={environment} tenantId={user.tenantId} canErase={canEraseCustomers(user.role)} />
    </section>
  );
}
