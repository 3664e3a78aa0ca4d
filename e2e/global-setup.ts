import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

// Onboards a fresh tenant with an owner and a support member through the operator CLI (the same path an
// operator uses), and leaves their sign-in details and a sandbox API key for the tests.
export const FIXTURE = path.resolve(import.meta.dirname, "..", ".data", "e2e-fixture.json");

export function cli(script: string, args: string[]): Record<string, unknown> {
  const out = execFileSync(path.resolve("node_modules/.bin/tsx"), [`scripts/cli/${script}.ts`, ...args, "--json"], {
    env: { ...process.env, AUTH_JWT_SECRET: "e2e-jwt-secret-0123456789abcdef0123456789abcdef" },
    encoding: "utf8",
  });
  return JSON.parse(out) as Record<string, unknown>;
}

export default function globalSetup() {
  if (!process.env.DATABASE_URL) throw new Error("Run the browser tests through `npm test` (it prepares DATABASE_URL)");
  const slug = `e2e-${Date.now().toString(36)}`;
  const owner = cli("tenants", ["create", "--slug", slug, "--name", "E2E Crédito", "--owner-email", `owner@${slug}.test`, "--owner-password", "owner-password-123"]);
  cli("tenants", ["add-member", "--tenant", slug, "--email", `support@${slug}.test`, "--role", "support", "--password", "support-password-123"]);
  // An integrator's sandbox key, for tests that build data through /v1 (e.g. a contract to collect).
  const apiKey = cli("keys", ["create", "--tenant", slug, "--environment", "sandbox", "--permissions", "read write proposals:review", "--name", "E2E integrator"]);
  mkdirSync(path.dirname(FIXTURE), { recursive: true });
  writeFileSync(
    FIXTURE,
    JSON.stringify({
      tenantId: owner.tenant_id,
      sandboxKey: apiKey.key,
      owner: { email: `owner@${slug}.test`, password: "owner-password-123" },
      support: { email: `support@${slug}.test`, password: "support-password-123" },
    }),
  );
}
