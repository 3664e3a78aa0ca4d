import { revokeOAuthClient } from "@/lib/auth/oauth-clients";
import { panelRoute } from "@/lib/panel/panel-route";

// POST /api/panel/oauth-clients/{id}/revoke — also revokes its refresh tokens; access tokens stop at once.
export const POST = panelRoute({ manageCredentials: true }, async ({ user, actor, params }) => ({
  body: await revokeOAuthClient(user.tenantId, params.id ?? "", actor),
}));
