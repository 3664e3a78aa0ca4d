import type { Role } from "@prisma/client";
import { cookies } from "next/headers";
import { cache } from "react";
import { redirect } from "next/navigation";
import type { MembershipView } from "@/lib/tenants/tenants";
import type { SessionClaims } from "./auth-options";
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
  /** The session's id (what signing out ends: ./ended-sessions.ts; null for a session from before ids were given) and
   *  when it would end anyway (sign-in + the longest a session lasts). */
  session: { id: string | null; endsAt: Date };
};

// next-auth's session cookie: `__Secure-` over HTTPS, split into `.0`, `.1`, … when large.
const SESSION_COOKIE = /^(__Secure-)?next-auth\.session-token(\.\d+)?$/;

/** Memoized for one page view (React's cache): the layout and the page both ask, and the session is decoded and the
 *  account read once. In route handlers (panelRoute) it runs each call. */
export const currentPanelUser = cache(async (): Promise<PanelUser | null> => {
  // No session cookie, nobody signed in — the sign-in page's usual visitor: answered without loading next-auth (with
  // its OAuth stack), the database client and the sign-in limiter, ≈ 0.3 s of the first page a fresh start serves.
  if (!(await cookies()).getAll().some((cookie) => SESSION_COOKIE.test(cookie.name))) return null;
  const [{ getServerSession }, { authOptions, sessionEndsAt, sessionMatchesPassword, sessionWithinLifetime }, { listMemberships }, { db }, { panelSessionEnded }] = await Promise.all([
    import("next-auth"),
    import("./auth-options"),
    import("@/lib/tenants/tenants"),
    import("@/lib/db/client"),
    import("./ended-sessions"),
  ]);
  const session = await getServerSession(authOptions);
  const userId = (session?.user as { id?: string } | undefined)?.id;
  if (!session?.user || !userId) return null;
  if (!sessionWithinLifetime(session as SessionClaims)) return null; // signed in too long ago, however busy since
  // A session that proved a password the account no longer has (changed or reset since: lib/auth/account-password.ts)
  // is over (./auth-options.ts, sessionMatchesPassword).
  // One signed out (./ended-sessions.ts: a copy of its cookie) is over too.
  const sessionId = (session as SessionClaims).sessionId;
  const [account, memberships, ended] = await Promise.all([
    db().user.findUnique({ where: { id: userId }, select: { passwordChangedAt: true } }),
    listMemberships(userId),
    sessionId ? panelSessionEnded(sessionId) : false,
  ]);
  if (!account || ended || !sessionMatchesPassword(session as SessionClaims, account)) return null;
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
    session: { id: sessionId ?? null, endsAt: sessionEndsAt(session as SessionClaims) },
  };
});

/** For the panel's pages: the signed-in user, or off to the sign-in page. The layout checks too, but Next renders a
 *  page alongside its layout, so a page must not assume the layout's check came first (a session that ended — a
 *  password reset elsewhere — would otherwise crash the page instead of landing on the sign-in page). */
export async function requirePanelUser(): Promise<PanelUser> {
  const user = await currentPanelUser();
  if (!user) redirect("/login");
  return user;
}
