import { Forbidden } from "@/components/forbidden";
import { WebhooksPanel } from "@/components/webhooks/webhooks-panel";
import { currentPanelUser } from "@/lib/panel/session";
import { canManageCredentials } from "@/lib/tenants/roles";

export default async function Page() {
  const user = (await currentPanelUser())!;
  if (!canManageCredentials(user.role)) return <Forbidden what="webhooks" />;
  return (
    <section className="max-w-5xl space-y-4">
      <h1 className="text-2xl font-semibold">Settings → Webhooks</h1>
      <p className="max-w-2xl text-sm text-slate-600">
        Where we POST events, signed per Standard Webhooks with each endpoint&apos;s secret. Failed deliveries are retried for about three days; a 410 disables the endpoint. Every change is audited.
      </p>
      <WebhooksPanel tenantId={user.tenantId} />
    </section>
  );
}
