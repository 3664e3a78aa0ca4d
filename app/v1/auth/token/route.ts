import { tokenOperation } from "@/lib/api/operations/platform";
import { apiRoute } from "@/lib/api/route";
import { exchangeToken } from "@/lib/auth/token-endpoint";

// POST /v1/auth/token — client_credentials and refresh_token grants (form-encoded).
export const POST = apiRoute(tokenOperation, async ({ ctx, body }) => ({
  body: await exchangeToken(ctx.credential, body),
}));
