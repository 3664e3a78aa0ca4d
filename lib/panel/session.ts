import type { Role } from "@prisma/client";
import { cookies } from "next/headers";
import type { MembershipView } from "@/lib/tenants/tenants";
import { environmentParam } from "./environment-param";

// Who is using the panel and for which tenant. The active tenant is one of the user's memberships
// (chosen with the cp_tenant cookie, else the first); the role comes from that membership.

export const ACTIVE_TENANT_COOKIE = "cp_tenant";

/** The environment the panel shows (components/environment-context.tsx keeps the cookie; the same name there). */
export async function currentPanelEnvironment(): Promise<"sandbox" | "production"> {
  return environmentParam((await cookies()).get("cp_env")?.value);
}

export type PanelUser = {
  userId: string;
  email: string;
  name: string;
  memberships: MembershipView[];
  tenantId: string;
  tenantSlug: string;
  tenantName: string;
  role: Role;
};

// next-auth's session cookie: `__Secure-` over HTTPS, split into `.0`, `.1`, … when large.
const SESSION_COOKIE = /^(__Secure-)?next-auth\.session-token(\.\d+)?$/;

export async function currentPanelUser(): Promise<PanelUser | null> {
  // No session cookie, nobody signed in — the sign-in page's usual visitor: answered without loading next-auth (with
  // its OAuth stack), the database client and the sign-in limiter, ≈ 0.3 s of the first page a fresh start serves.
  if (!(await cookies()).getAll().some((cookie) => SESSION_COOKIE.test(cookie.name))) return null;
  const [{ getServerSession }, { authOptions }, { listMemberships }] = await Promise.all([
    import("next-auth"),
    import("./auth-options"),
    import("@/lib/tenants/tenants"),
  ]);
  const session = await getServerSession(authOptions);
  const userId = (session?.user as { id?: string } | undefined)?.id;
  if (!session?.user || !userId) return null;
  const memberships = await listMemberships(userId);
  if (memberships.length === 0) return null;
  const wanted = (await cookies()).get(ACTIVE_TENANT_COOKIE)?.value;
  const active = memberships.find((m) => m.tenantId === wanted) ?? memberships[0]!;
  return {
    userId,
    email: session.user.email ?? "",
    name: session.user.name ?? "",
    memberships,
    tenantId: active.tenantId,
    tenantSlug: active.tenantSlug,
    tenantName: active.tenantName,
    role: active.role,
  };
}
