import { panelRoute } from "@/lib/panel/panel-route";
import { listOpenInvitations } from "@/lib/tenants/invitations";
import { listMembers } from "@/lib/tenants/members";
import { canManageMembers } from "@/lib/tenants/roles";

// GET /api/panel/members — the active tenant's members and open invitations (owners and admins; owners act).
export const GET = panelRoute({ manageCredentials: true }, async ({ user }) => {
  const [members, invitations] = await Promise.all([listMembers(user.tenantId), listOpenInvitations(user.tenantId)]);
  return { body: { members, invitations, can_manage: canManageMembers(user.role), you: user.userId } };
});
