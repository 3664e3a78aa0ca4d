import { activeOAuthClient } from "@/lib/api/authenticate";
import { tokenOperation } from "@/lib/api/operations/platform";
import { apiRoute } from "@/lib/api/route";
import { exchangeToken } from "@/lib/auth/token-endpoint";

// POST /v1/auth/token — client_credentials and refresh_token grants (form-encoded). The client is looked up again
// as the grant is issued: one revoked since it authenticated gets invalid_client with its challenge, like any other.
export const POST = apiRoute(tokenOperation, async ({ ctx, body }) => ({
  body: await exchangeToken(await activeOAuthClient(ctx.credential), body),
}));
