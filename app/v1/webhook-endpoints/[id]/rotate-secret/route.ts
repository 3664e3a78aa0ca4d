import { rotateWebhookSecretOperation } from "@/lib/api/operations/webhooks";
import { apiRoute } from "@/lib/api/route";
import { rotateSecret } from "@/lib/webhooks/endpoints";

// POST /v1/webhook-endpoints/{id}/rotate-secret — the new secret is in this response only.
export const POST = apiRoute(rotateWebhookSecretOperation, async ({ ctx, params, body }) => ({ body: await rotateSecret(ctx, ctx.actor, params.id, body.grace_period_seconds, ctx.credential.permissions) }));
