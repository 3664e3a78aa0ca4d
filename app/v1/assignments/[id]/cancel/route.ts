import { cancelAssignmentOperation } from "@/lib/api/operations/assignments";
import { apiRoute } from "@/lib/api/route";
import { cancelAssignment } from "@/lib/assignments/assignments";

// POST /v1/assignments/{id}/cancel — a pending assignment.
export const POST = apiRoute(cancelAssignmentOperation, async ({ ctx, params, body }) => ({ body: await cancelAssignment(ctx, ctx.actor, params.id, body.reason) }));
