import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { db } from "@/lib/db/client";
import { createTenant } from "@/lib/tenants/tenants";
import { DEV_DATA_DIR } from "./lib/dev-env";

// The demo tenant and its owner, created once. The owner's password is DEMO_OWNER_PASSWORD or a random
// one, kept in .data/demo-credentials.json (git-ignored, 0600) so every start can print it again.

export const DEMO_SLUG = "demo";
const CREDENTIALS_FILE = path.join(DEV_DATA_DIR, "demo-credentials.json");

export type DemoAccount = { tenantId: string; email: string; password: string | null };

export async function seedDemo(): Promise<DemoAccount> {
  const email = "owner@demo.test";
  const existing = await db().tenant.findUnique({ where: { slug: DEMO_SLUG } });
  if (existing) {
    const saved = existsSync(CREDENTIALS_FILE) ? (JSON.parse(readFileSync(CREDENTIALS_FILE, "utf8")) as { password?: string }) : {};
    return { tenantId: existing.id, email, password: saved.password ?? null };
  }
  const password = process.env.DEMO_OWNER_PASSWORD ?? randomBytes(12).toString("base64url");
  const { tenant } = await createTenant(
    { slug: DEMO_SLUG, name: "Demo Financeira S.A.", owner: { email, name: "Demo Owner", password } },
    { type: "system", label: "seed" },
  );
  writeFileSync(CREDENTIALS_FILE, JSON.stringify({ email, password }, null, 2), { mode: 0o600 });
  return { tenantId: tenant.id, email, password };
}
