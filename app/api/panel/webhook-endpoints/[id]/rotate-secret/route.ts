import { panelRoute } from "@/lib/panel/panel-route";
import { panelScope } from "@/lib/panel/environment-param";
import { rotateSecret } from "@/lib/webhooks/endpoints";
import { RotateSecretBody } from "@/lib/webhooks/schemas";

// POST /api/panel/webhook-endpoints/{id}/rotate-secret?environment= — the new secret is in this response only.
export const POST = panelRoute({ manageCredentials: true, body: RotateSecretBody }, async ({ user, actor, body, params, request }) => ({
  body: await rotateSecret(panelScope(user, request), actor, params.id!, body.grace_period_seconds),
}));
