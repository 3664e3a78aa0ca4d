import { z } from "zod";
import { cookies } from "next/headers";
import { getEnv } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { panelRoute } from "@/lib/panel/panel-route";
import { ACTIVE_TENANT_COOKIE } from "@/lib/panel/session";

const Body = z.strictObject({ tenant_id: z.string().trim().min(1) });

// POST /api/panel/active-tenant — switch to another tenant the user is a member of.
export const POST = panelRoute({ body: Body, switchesTenant: true }, async ({ user, body }) => {
  if (!user.memberships.some((m) => m.tenantId === body.tenant_id)) throw new DomainError("not_found", "Tenant not found");
  // Secure as next-auth's session cookie is: whenever the panel's address (NEXTAUTH_URL, required in production) is https.
  const secure = getEnv().NEXTAUTH_URL?.startsWith("https://") ?? false;
  (await cookies()).set(ACTIVE_TENANT_COOKIE, body.tenant_id, { httpOnly: true, sameSite: "lax", path: "/", secure });
  return { body: { tenant_id: body.tenant_id } };
});
