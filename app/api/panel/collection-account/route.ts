import { z } from "zod";
import { CollectionAccountBody, getCollectionAccount, putCollectionAccount } from "@/lib/collection/account-settings";
import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";

// The active tenant's collection account per environment, for owners and admins (Settings → Collection account).
// The same service as GET/PUT /v1/collection-account; the environment is chosen in the panel.

const Environment = z.enum(["sandbox", "production"]);

// GET /api/panel/collection-account?environment=sandbox|production — 404 in production until one is set.
export const GET = panelRoute({ manageCredentials: true }, async ({ user, request }) => ({ body: await getCollectionAccount(panelScope(user, request)) }));

// PUT /api/panel/collection-account — {environment, …the account}.
export const PUT = panelRoute({ manageCredentials: true, body: CollectionAccountBody.extend({ environment: Environment }) }, async ({ user, actor, body }) => {
  const { environment, ...account } = body;
  return { body: await putCollectionAccount({ tenantId: user.tenantId, environment }, actor, account) };
});
