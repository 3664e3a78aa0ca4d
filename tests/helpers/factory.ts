import { randomBytes } from "node:crypto";
import type { Environment } from "@prisma/client";
import { createApiKey } from "@/lib/auth/api-keys";
import { createOAuthClient } from "@/lib/auth/oauth-clients";
import type { Permission } from "@/lib/auth/permissions";
import { createTenant } from "@/lib/tenants/tenants";

// Every test creates its own tenant: tests never share state and can run in any order.

export const actor = { type: "cli" as const, label: "test" };

export async function newTenant() {
  const slug = `t-${randomBytes(5).toString("hex")}`;
  const { tenant, ownerUserId } = await createTenant(
    { slug, name: `Tenant ${slug}`, owner: { email: `owner@${slug}.test`, name: "Owner", password: "correct horse battery" } },
    actor,
  );
  return { tenant, ownerUserId };
}

export async function newKey(tenantId: string, environment: Environment = "sandbox", permissions: Permission[] = ["read", "write"]) {
  const { apiKey, key } = await createApiKey({ tenantId, environment, name: "test key", permissions, actor });
  return { apiKey, key };
}

export async function newClient(tenantId: string, environment: Environment = "sandbox", scopes: Permission[] = ["read", "write"]) {
  const { client, clientSecret } = await createOAuthClient({ tenantId, environment, name: "test client", scopes, actor });
  return { client, clientSecret };
}
