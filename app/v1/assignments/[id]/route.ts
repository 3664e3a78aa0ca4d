import { getAssignmentOperation } from "@/lib/api/operations/assignments";
import { apiRoute } from "@/lib/api/route";
import { getAssignment } from "@/lib/assignments/assignments";

// GET /v1/assignments/{id}
export const GET = apiRoute(getAssignmentOperation, async ({ ctx, params }) => ({ body: await getAssignment(ctx, params.id) }));
