import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { CreateCredentialBody } from "@/lib/panel/credential-schemas";
import { panelRoute } from "@/lib/panel/panel-route";

// GET /api/panel/api-keys — the active tenant's keys (both environments).
export const GET = panelRoute({ manageCredentials: true }, async ({ user }) => ({ body: { data: await listApiKeys(user.tenantId) } }));

// POST /api/panel/api-keys — create a key; the plaintext key is in this response only.
export const POST = panelRoute({ manageCredentials: true, body: CreateCredentialBody }, async ({ user, actor, body }) => {
  const { apiKey, key } = await createApiKey({ tenantId: user.tenantId, ...body, actor });
  return { status: 201, body: { ...apiKey, key } };
});
