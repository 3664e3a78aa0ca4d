import { randomBytes } from "node:crypto";
import { createApiKey } from "@/lib/auth/api-keys";
import { disconnectDb } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { createTenant } from "@/lib/tenants/tenants";

// Seeds the benchmark's throw-away database (DATABASE_URL) with one tenant and one sandbox API key,
// through the same services the CLI uses, and prints {"tenantId","key"} as one JSON line on stdout.
// Run in a child process by bench/run.ts so Prisma never loads into the process that measures.

const actor = { type: "cli", label: "bench" } as const;

try {
  const { tenant } = await createTenant(
    {
      slug: `bench-${Date.now().toString(36)}`,
      name: "Benchmark",
      owner: { email: `bench-${Date.now()}@example.com`, name: "Benchmark", password: randomBytes(24).toString("base64url") },
    },
    actor,
  );
  const { key } = await createApiKey({ tenantId: tenant.id, environment: "sandbox", name: "bench", permissions: ["read"], actor });
  process.stdout.write(`${JSON.stringify({ tenantId: tenant.id, key })}\n`);
} finally {
  await disconnectDb();
  await stopListener();
}
