import { PageEnvironment } from "@/components/environment-context";
import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { ProposalDossier } from "@/components/proposals/proposal-dossier";
import { environmentParam } from "@/lib/panel/environment-param";
import { requirePanelUser } from "@/lib/panel/session";
import { canReview } from "@/lib/tenants/roles";

// One proposal's dossier and its review (?environment=sandbox|production).
export default async function Page({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ environment?: string }> }) {
  const user = await requirePanelUser();
  const nav = await getTranslations("Nav");
  const dossier = await getTranslations("Dossier");
  const { id } = await params;
  const environment = environmentParam((await searchParams).environment);
  return (
    <section className="max-w-5xl space-y-4">
      <PageEnvironment environment={environment} listHref="/proposals" />
      <Link href="/proposals" className="text-sm underline">{nav("backToProposals")}</Link>
      <h1 className="break-all text-2xl font-semibold">{dossier("title", { id })}</h1>
      <ProposalDossier id={id} environment={environment} tenantId={user.tenantId} canReview={canReview(user.role)} />
    </section>
  );
}
