import { validate } from "@/lib/api/request-input";
import { AuditQuery, auditList } from "@/lib/panel/audit-view";
import { panelRoute } from "@/lib/panel/panel-route";

// GET /api/panel/audit-log?environment=&action=&actor=&target=&from=&to=&cursor= — owners and admins.
export const GET = panelRoute({ manageCredentials: true }, async ({ user, query: raw }) => {
  const query = validate(AuditQuery, raw, "query") as AuditQuery;
  return { body: await auditList(user.tenantId, query) };
});
