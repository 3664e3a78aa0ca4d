import type { Environment } from "@prisma/client";
import { ENVIRONMENTS } from "@/lib/auth/credential";
import { isPermission, splitScopes, type Permission } from "@/lib/auth/permissions";
import { getTenantBySlug } from "@/lib/tenants/tenants";
import { db } from "@/lib/db/client";
import { oneOf, UsageError } from "./common";

// Flags shared by the keys and oauth-clients CLIs.

export function environmentFlag(value: string | undefined): Environment {
  return oneOf(value, ENVIRONMENTS, "--environment");
}

/** `--permissions` / `--scopes`: coarse (`read write`) or fine-grained names, space or comma separated. */
export function permissionsFlag(value: string | undefined, flag: string): Permission[] {
  const names = splitScopes(value ?? "read write");
  const unknown = names.filter((n) => !isPermission(n));
  if (unknown.length > 0) throw new UsageError(`${flag}: unknown permission(s) ${unknown.join(", ")}`);
  if (names.length === 0) throw new UsageError(`${flag} needs at least one permission`);
  return names as Permission[];
}

/** The tenant named by --tenant, or (for revoke by id) the owner of the credential. */
export async function tenantIdFor(slug: string | undefined, ownerOf?: () => Promise<string | null>): Promise<string> {
  if (slug) return (await getTenantBySlug(slug)).id;
  const owner = ownerOf ? await ownerOf() : null;
  if (!owner) throw new UsageError("--tenant is required");
  return owner;
}

export const ownerOfApiKey = (id: string) => async () =>
  (await db().apiKey.findUnique({ where: { id }, select: { tenantId: true } }))?.tenantId ?? null;
export const ownerOfOAuthClient = (id: string) => async () =>
  (await db().oAuthClient.findUnique({ where: { id }, select: { tenantId: true } }))?.tenantId ?? null;
