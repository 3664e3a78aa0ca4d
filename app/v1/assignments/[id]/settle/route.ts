import { settleAssignmentOperation } from "@/lib/api/operations/assignments";
import { apiRoute } from "@/lib/api/route";
import { settleAssignment } from "@/lib/assignments/assignments";

// POST /v1/assignments/{id}/settle — its contracts become assigned.
export const POST = apiRoute(settleAssignmentOperation, async ({ ctx, params }) => ({ body: await settleAssignment(ctx, ctx.actor, params.id) }));
