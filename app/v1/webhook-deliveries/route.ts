import { listWebhookDeliveriesOperation } from "@/lib/api/operations/webhooks";
import { apiRoute } from "@/lib/api/route";
import { listDeliveries } from "@/lib/webhooks/deliveries";

// GET /v1/webhook-deliveries — newest first.
export const GET = apiRoute(listWebhookDeliveriesOperation, async ({ ctx, query }) => ({ body: await listDeliveries(ctx, query, ctx.credential.permissions) }));
