import type { Role } from "@prisma/client";
import { getServerSession } from "next-auth";
import { cookies } from "next/headers";
import { listMemberships, type MembershipView } from "@/lib/tenants/tenants";
import { authOptions } from "./auth-options";
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

export async function currentPanelUser(): Promise<PanelUser | null> {
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
