import { panelRoute } from "@/lib/panel/panel-route";
import { revokeInvitation } from "@/lib/tenants/invitations";

// POST /api/panel/invitations/{id}/revoke — void an open invitation's link.
export const POST = panelRoute({ manageMembers: true }, async ({ user, actor, params }) => ({
  body: await revokeInvitation(user.tenantId, actor, params.id!),
}));
