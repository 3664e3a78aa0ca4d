import type { Role, Tenant, User } from "@prisma/client";
import { z } from "zod";
import type { Actor } from "@/lib/audit/audit-log";
import { writeAudit } from "@/lib/audit/audit-log";
import { hashPassword } from "@/lib/auth/passwords";
import { db, type Tx } from "@/lib/db/client";
import { DomainError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";

// Tenants and their panel members. Onboarding creates the tenant and its owner account in one transaction.
//
// An operator (the CLI) vouches for the accounts it makes: their address counts as proven (`email_verified_at`). An
// account made by accepting an invitation does not — the link was shown to the inviter too, so the inviter could have
// opened it and set the password for an address that is not theirs, waiting for that address to be given another
// tenant. So when an operator gives an existing account whose address was never proven a tenant, its password becomes
// the one the operator sets (shown to the operator only; its sessions end) instead of being kept.

export const TenantSlug = z
  .string()
  .trim()
  .regex(/^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/, "3–40 lowercase letters, digits or hyphens");

export const CreateTenantInput = z.strictObject({
  slug: TenantSlug,
  name: z.string().trim().min(1).max(120),
  owner: z.strictObject({
    email: z.email().trim().toLowerCase(),
    name: z.string().trim().min(1).max(120),
    password: z.string().min(12, "at least 12 characters").max(200),
  }),
});
export type CreateTenantInput = z.infer<typeof CreateTenantInput>;

export async function createTenant(
  input: CreateTenantInput,
  actor: Actor,
): Promise<{ tenant: Tenant; ownerUserId: string; ownerCreated: boolean; ownerPasswordSet: boolean }> {
  const data = CreateTenantInput.parse(input);
  const passwordHash = await hashPassword(data.owner.password);
  return db().$transaction(async (tx) => {
    if (await tx.tenant.findUnique({ where: { slug: data.slug } })) {
      throw new DomainError("conflict", `A tenant with slug "${data.slug}" already exists`);
    }
    const tenant = await tx.tenant.create({ data: { id: newId("tenant"), slug: data.slug, name: data.name } });
    const existingUser = await tx.user.findUnique({ where: { email: data.owner.email } });
    const now = new Date();
    const user =
      existingUser ??
      (await tx.user.create({
        data: { id: newId("user"), email: data.owner.email, name: data.owner.name, passwordHash, emailVerifiedAt: now },
      }));
    const replaced = existingUser ? await replaceUnverifiedPassword(tx, existingUser, passwordHash, tenant.id, actor, now) : false;
    await tx.membership.create({ data: { tenantId: tenant.id, userId: user.id, role: "owner" } });
    await writeAudit(tx, {
      tenantId: tenant.id,
      actor,
      action: "tenant.created",
      target: { type: "tenant", id: tenant.id },
      metadata: { slug: tenant.slug, owner: user.email },
    });
    // An existing account keeps its password (the one given is used only for a new account) — unless its address was
    // never proven: then it takes the one given.
    return { tenant, ownerUserId: user.id, ownerCreated: !existingUser, ownerPasswordSet: !existingUser || replaced };
  });
}

export async function getTenantBySlug(slug: string): Promise<Tenant> {
  const tenant = await db().tenant.findUnique({ where: { slug } });
  if (!tenant) throw notFound(`Tenant "${slug}"`);
  return tenant;
}

export async function listTenants(): Promise<Tenant[]> {
  return db().tenant.findMany({ orderBy: { createdAt: "asc" } });
}

export type MembershipView = { tenantId: string; tenantSlug: string; tenantName: string; role: Role };

export async function listMemberships(userId: string): Promise<MembershipView[]> {
  const rows = await db().membership.findMany({
    where: { userId },
    include: { tenant: true },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((m) => ({ tenantId: m.tenantId, tenantSlug: m.tenant.slug, tenantName: m.tenant.name, role: m.role }));
}

/** Adds (or changes the role of) a panel member, creating the account if the e-mail is new. */
export async function addMember(
  tenantId: string,
  member: { email: string; name: string; password: string; role: Role },
  actor: Actor,
): Promise<{ userId: string; created: boolean; passwordSet: boolean }> {
  const passwordHash = await hashPassword(member.password);
  return db().$transaction(async (tx) => {
    const email = member.email.trim().toLowerCase();
    const existing = await tx.user.findUnique({ where: { email } });
    const now = new Date();
    const user = existing ?? (await tx.user.create({ data: { id: newId("user"), email, name: member.name, passwordHash, emailVerifiedAt: now } }));
    // A new membership only: changing the role of someone already in this tenant grants nothing new.
    const membership = existing ? await tx.membership.findUnique({ where: { tenantId_userId: { tenantId, userId: existing.id } }, select: { role: true } }) : null;
    const replaced = existing && !membership ? await replaceUnverifiedPassword(tx, existing, passwordHash, tenantId, actor, now) : false;
    await tx.membership.upsert({
      where: { tenantId_userId: { tenantId, userId: user.id } },
      create: { tenantId, userId: user.id, role: member.role },
      update: { role: member.role },
    });
    await writeAudit(tx, {
      tenantId,
      actor,
      action: "member.added",
      target: { type: "user", id: user.id },
      metadata: { email, role: member.role },
    });
    return { userId: user.id, created: !existing, passwordSet: !existing || replaced };
  });
}

/** An existing account an operator gives `tenantId`: if its address was never proven, its password becomes the
 *  operator's (`passwordHash`) and its sessions end; audited as `user.password_replaced`. Whether it was replaced. */
async function replaceUnverifiedPassword(tx: Tx, user: User, passwordHash: string, tenantId: string, actor: Actor, now: Date): Promise<boolean> {
  if (user.emailVerifiedAt !== null) return false;
  // Conditional: a reset that proved the address meanwhile keeps the password it set.
  const changed = await tx.user.updateMany({ where: { id: user.id, emailVerifiedAt: null }, data: { passwordHash, passwordChangedAt: now, emailVerifiedAt: now } });
  if (changed.count !== 1) return false;
  await writeAudit(tx, {
    tenantId,
    actor,
    action: "user.password_replaced",
    target: { type: "user", id: user.id },
    metadata: { email: user.email, reason: "the account's address was never verified (made through an invitation link)" },
  });
  return true;
}
