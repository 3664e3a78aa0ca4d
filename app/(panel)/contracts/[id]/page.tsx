import { PageEnvironment } from "@/components/environment-context";
import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { ContractFile } from "@/components/contracts/contract-file";
import { environmentParam } from "@/lib/panel/environment-param";
import { requirePanelUser } from "@/lib/panel/session";
import { canIssueCharges, canRecordRefunds, canWriteOff } from "@/lib/tenants/roles";

// One contract's file (?environment=sandbox|production).
export default async function Page({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ environment?: string }> }) {
  const user = await requirePanelUser();
  const nav = await getTranslations("Nav");
  const { id } = await params;
  const environment = environmentParam((await searchParams).environment);
  return (
    <section className="max-w-6xl space-y-4">
      <PageEnvironment environment={environment} listHref="/contracts" />
      <Link href="/contracts" className="text-sm underline">{nav("backToContracts")}</Link>
      <ContractFile id={id} environment={environment} tenantId={user.tenantId} canRecordRefunds={canRecordRefunds(user.role)} canIssueCharges={canIssueCharges(user.role)} canWriteOff={canWriteOff(user.role)} />
    </section>
  );
}
