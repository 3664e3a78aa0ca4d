import type { Role } from "@prisma/client";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { db, type Tx } from "@/lib/db/client";
import { DomainError, notFound } from "@/lib/errors";
import { revokeInvitationsSentBy } from "./invitations";
import { lockTenantForMemberChange } from "./manager-lock";

// A tenant's panel members: list, change role, remove. Every change locks the tenant row first, so two owners
// demoting or removing each other at the same moment cannot leave the tenant without an owner, and re-reads under
// that lock that whoever asks may still manage members (./manager-lock.ts): the first change wins.
// A member removed or demoted loses the open invitations they sent with the change (./invitations.ts).

export type MemberView = { user_id: string; email: string; name: string; role: Role; joined_at: string };

export async function listMembers(tenantId: string): Promise<MemberView[]> {
  const rows = await db().membership.findMany({ where: { tenantId }, include: { user: true }, orderBy: [{ createdAt: "asc" }, { userId: "asc" }] });
  return rows.map((m) => ({ user_id: m.userId, email: m.user.email, name: m.user.name, role: m.role, joined_at: m.createdAt.toISOString() }));
}

const lastOwner = () => new DomainError("conflict", "A tenant keeps at least one owner: make another member owner first");

async function lockedMembership(tx: Tx, tenantId: string, actor: Actor, userId: string) {
  await lockTenantForMemberChange(tx, tenantId, actor);
  const membership = await tx.membership.findUnique({ where: { tenantId_userId: { tenantId, userId } }, include: { user: true } });
  if (!membership) throw notFound("Member");
  const owners = await tx.membership.count({ where: { tenantId, role: "owner" } });
  return { membership, owners };
}

export async function changeMemberRole(tenantId: string, actor: Actor, userId: string, role: Role): Promise<MemberView> {
  return db().$transaction(async (tx) => {
    const { membership, owners } = await lockedMembership(tx, tenantId, actor, userId);
    if (membership.role === role) return view(membership);
    if (membership.role === "owner" && owners <= 1) throw lastOwner();
    const updated = await tx.membership.update({ where: { tenantId_userId: { tenantId, userId } }, data: { role }, include: { user: true } });
    await writeAudit(tx, {
      tenantId,
      actor,
      action: "member.role_changed",
      target: { type: "user", id: userId },
      metadata: { email: membership.user.email, from: membership.role, to: role },
    });
    await revokeInvitationsSentBy(tx, tenantId, actor, { userId, role });
    return view(updated);
  });
}

export async function removeMember(tenantId: string, actor: Actor, userId: string): Promise<void> {
  await db().$transaction(async (tx) => {
    const { membership, owners } = await lockedMembership(tx, tenantId, actor, userId);
    if (membership.role === "owner" && owners <= 1) throw lastOwner();
    await tx.membership.delete({ where: { tenantId_userId: { tenantId, userId } } });
    await writeAudit(tx, {
      tenantId,
      actor,
      action: "member.removed",
      target: { type: "user", id: userId },
      metadata: { email: membership.user.email, role: membership.role },
    });
    await revokeInvitationsSentBy(tx, tenantId, actor, { userId, role: null });
  });
}

function view(m: { userId: string; role: Role; createdAt: Date; user: { email: string; name: string } }): MemberView {
  return { user_id: m.userId, email: m.user.email, name: m.user.name, role: m.role, joined_at: m.createdAt.toISOString() };
}
