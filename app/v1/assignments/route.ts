import { createAssignmentOperation, listAssignmentsOperation } from "@/lib/api/operations/assignments";
import { apiRoute } from "@/lib/api/route";
import { listAssignments } from "@/lib/assignments/assignments";
import { createAssignment } from "@/lib/assignments/create-assignment";

// POST /v1/assignments — contracts offered to an assignee, priced.
export const POST = apiRoute(createAssignmentOperation, async ({ ctx, body }) => ({ status: 201, body: await createAssignment(ctx, ctx.actor, body) }));

// GET /v1/assignments — newest first.
export const GET = apiRoute(listAssignmentsOperation, async ({ ctx, query }) => ({ body: await listAssignments(ctx, query) }));
