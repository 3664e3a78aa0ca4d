import { panelBaseUrl, panelLocale, panelRoute } from "@/lib/panel/panel-route";
import { createInvitation, invitationUrl, InviteInput } from "@/lib/tenants/invitations";

// POST /api/panel/invitations — invite an e-mail with a role; the answer holds the link, shown this once. With
// SMTP_URL set the link is also e-mailed, in the inviter's panel language (`email_delivery: "pending"`).
export const POST = panelRoute({ manageMembers: true, body: InviteInput }, async ({ user, actor, body, request }) => {
  const linkBase = panelBaseUrl(request);
  const { invitation, token } = await createInvitation(user.tenantId, actor, body, { mail: { linkBase, locale: panelLocale(request) } });
  return { status: 201, body: { ...invitation, url: invitationUrl(linkBase, token) } };
});
