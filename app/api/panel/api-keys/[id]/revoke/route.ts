import { revokeApiKey } from "@/lib/auth/api-keys";
import { panelRoute } from "@/lib/panel/panel-route";

// POST /api/panel/api-keys/{id}/revoke — effective on the key's next request.
export const POST = panelRoute({ manageCredentials: true }, async ({ user, actor, params }) => ({
  body: await revokeApiKey(user.tenantId, params.id ?? "", actor),
}));
