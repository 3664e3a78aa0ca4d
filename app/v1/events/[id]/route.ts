import { getEventOperation } from "@/lib/api/operations/webhooks";
import { apiRoute } from "@/lib/api/route";
import { getEvent } from "@/lib/webhooks/events";

export const GET = apiRoute(getEventOperation, async ({ ctx, params }) => ({ body: await getEvent(ctx, params.id, ctx.credential.permissions) }));
