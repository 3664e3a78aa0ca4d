import { createOAuthClient, listOAuthClients } from "@/lib/auth/oauth-clients";
import { CreateCredentialBody } from "@/lib/panel/credential-schemas";
import { panelRoute } from "@/lib/panel/panel-route";

// GET /api/panel/oauth-clients — the active tenant's OAuth clients.
export const GET = panelRoute({ manageCredentials: true }, async ({ user }) => ({ body: { data: await listOAuthClients(user.tenantId) } }));

// POST /api/panel/oauth-clients — create a client; the secret is in this response only.
export const POST = panelRoute({ manageCredentials: true, body: CreateCredentialBody }, async ({ user, actor, body }) => {
  const { client, clientSecret } = await createOAuthClient({
    tenantId: user.tenantId,
    name: body.name,
    environment: body.environment,
    scopes: body.permissions,
    actor,
  });
  return { status: 201, body: { ...client, client_secret: clientSecret } };
});
