import { AuditQuery, auditList } from "@/lib/panel/audit-view";
import { panelRoute } from "@/lib/panel/panel-route";

// GET /api/panel/audit-log?environment=&action=&actor=&target=&from=&to=&cursor= — owners and admins.
export const GET = panelRoute({ manageCredentials: true }, async ({ user, parseQuery }) => {
  const query = parseQuery(AuditQuery);
  return { body: await auditList(user.tenantId, query) };
});
