import { listEventsOperation } from "@/lib/api/operations/webhooks";
import { apiRoute } from "@/lib/api/route";
import { listEvents } from "@/lib/webhooks/events";

// GET /v1/events — newest first.
export const GET = apiRoute(listEventsOperation, async ({ ctx, query }) => ({ body: await listEvents(ctx, query, ctx.credential.permissions) }));
