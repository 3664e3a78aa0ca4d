import { panelBaseUrl, panelRoute } from "@/lib/panel/panel-route";
import { createInvitation, invitationUrl, InviteInput } from "@/lib/tenants/invitations";

// POST /api/panel/invitations — invite an e-mail with a role; the answer holds the link, shown this once.
export const POST = panelRoute({ manageMembers: true, body: InviteInput }, async ({ user, actor, body, request }) => {
  const { invitation, token } = await createInvitation(user.tenantId, actor, body);
  return { status: 201, body: { ...invitation, url: invitationUrl(panelBaseUrl(request), token) } };
});
