import { declineAssignmentOperation } from "@/lib/api/operations/assignments";
import { apiRoute } from "@/lib/api/route";
import { declineAssignment } from "@/lib/assignments/assignments";

// POST /v1/assignments/{id}/decline — the assignee declined a pending offer; its contracts are free again.
export const POST = apiRoute(declineAssignmentOperation, async ({ ctx, params, body }) => ({ body: await declineAssignment(ctx, ctx.actor, params.id, body.reason) }));
