import { z } from "zod";
import { panelRoute } from "@/lib/panel/panel-route";
import { changeMemberRole, removeMember } from "@/lib/tenants/members";

const RoleBody = z.strictObject({ role: z.enum(["owner", "admin", "support", "viewer"]) });

// PATCH /api/panel/members/{userId} — change a member's role (owners; never the last owner away).
export const PATCH = panelRoute({ manageMembers: true, body: RoleBody }, async ({ user, actor, body, params }) => ({
  body: await changeMemberRole(user.tenantId, actor, params.userId!, body.role),
}));

// DELETE /api/panel/members/{userId} — remove a member from the tenant (their account stays; never the last owner).
export const DELETE = panelRoute({ manageMembers: true }, async ({ user, actor, params }) => {
  await removeMember(user.tenantId, actor, params.userId!);
  return { body: { user_id: params.userId, removed: true } };
});
