import { z } from "zod";

// The permission catalogue. API keys carry permissions, OAuth clients and their tokens carry scopes:
// both use these names. The spec's coarse scopes `read` and `write` grant every `<resource>:read` and
// every `<resource>:write` respectively; they do not imply each other (a write-only credential cannot list).
// `proposals:review` (approve/reject, for staff integrations), `collections:admin` (where borrowers pay:
// the collection account) and `customers:erase` (erasing a customer's data, LGPD: it cannot be undone) are granted only
// by name.

export const RESOURCES = [
  "customers",
  "simulations",
  "proposals",
  "contracts",
  "installments",
  "collections",
  "risk",
  "settlements",
  "assignments",
  "payroll",
  "webhooks",
] as const;

export type Resource = (typeof RESOURCES)[number];
/** Permissions outside the read/write grid, granted only by name (never by coarse `write`). */
export const SPECIAL_PERMISSIONS = ["proposals:review", "collections:admin", "customers:erase"] as const;
export type SpecialPermission = (typeof SPECIAL_PERMISSIONS)[number];
export type FinePermission = `${Resource}:read` | `${Resource}:write` | SpecialPermission;
export type Permission = "read" | "write" | FinePermission;

export const FINE_PERMISSIONS: readonly FinePermission[] = [
  ...RESOURCES.flatMap((r) => [`${r}:read` as const, `${r}:write` as const]),
  ...SPECIAL_PERMISSIONS,
];

export const ALL_PERMISSIONS: readonly Permission[] = ["read", "write", ...FINE_PERMISSIONS];

export const PermissionSchema = z.enum(ALL_PERMISSIONS as [Permission, ...Permission[]]).meta({
  description: "A permission (API keys) or scope (OAuth2): `read`, `write`, or `<resource>:read|write`.",
});

export function isPermission(value: string): value is Permission {
  return (ALL_PERMISSIONS as readonly string[]).includes(value);
}

/** Does a credential holding `granted` pass a route that requires `required`? */
export function grants(granted: readonly string[], required: FinePermission): boolean {
  if (granted.includes(required)) return true;
  if ((SPECIAL_PERMISSIONS as readonly string[]).includes(required)) return false;
  const action = required.endsWith(":read") ? "read" : "write";
  return granted.includes(action);
}

/** Sorted, de-duplicated permission list; throws on unknown names (callers validate first). */
export function normalizePermissions(values: readonly string[]): Permission[] {
  const unknown = values.filter((v) => !isPermission(v));
  if (unknown.length > 0) throw new Error(`Unknown permissions: ${unknown.join(", ")}`);
  return [...new Set(values as Permission[])].sort();
}

/** Parses a space- or comma-separated scope string (OAuth `scope`, CLI `--permissions`). */
export function splitScopes(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
