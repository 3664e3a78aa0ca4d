import { Forbidden } from "@/components/forbidden";
import { MembersPanel } from "@/components/members/members-panel";
import { currentPanelUser } from "@/lib/panel/session";
import { canManageCredentials } from "@/lib/tenants/roles";

export default async function Page() {
  const user = (await currentPanelUser())!;
  if (!canManageCredentials(user.role)) return <Forbidden what="members" />;
  return (
    <section className="max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold">Settings → Members</h1>
      <p className="max-w-2xl text-sm text-slate-600">
        Owners invite people by e-mail with a role, change roles and remove members; admins see the list. Roles: owner (everything), admin (credentials, webhooks, settings), support (reviews proposals), viewer (reads). A tenant always keeps at least one owner.
      </p>
      <MembersPanel tenantId={user.tenantId} />
    </section>
  );
}
