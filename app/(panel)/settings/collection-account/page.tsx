import { CollectionAccountForm } from "@/components/collection/collection-account-form";
import { Forbidden } from "@/components/forbidden";
import { currentPanelUser } from "@/lib/panel/session";
import { canManageCredentials } from "@/lib/tenants/roles";

export default async function Page() {
  const user = (await currentPanelUser())!;
  if (!canManageCredentials(user.role)) return <Forbidden what="the collection account" />;
  return (
    <section className="max-w-5xl space-y-4">
      <h1 className="text-2xl font-semibold">Settings → Collection account</h1>
      <p className="max-w-2xl text-sm text-slate-600">Where your borrowers pay: the bank agreement your boletos are issued under and the Pix receiver. Every change is audited.</p>
      <CollectionAccountForm tenantId={user.tenantId} />
    </section>
  );
}
