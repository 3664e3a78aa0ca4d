import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/auth/api-keys";
import { notFound } from "@/lib/errors";
import { cliActor, output, parse, required, runCli, UsageError } from "./common";
import { environmentFlag, ownerOfApiKey, permissionsFlag, tenantIdFor } from "./credential-flags";

const USAGE = `Usage:
  npm run keys -- create --tenant <slug> --environment sandbox|production [--permissions "read write"] [--name <name>] [--json]
  npm run keys -- list --tenant <slug> [--json]
  npm run keys -- revoke <key id> [--tenant <slug>] [--json]

--permissions takes the coarse scopes read and write and fine-grained ones such as customers:read (default: "read write").
The key is printed once; only its hash is stored.`;

await runCli(USAGE, async (argv) => {
  const [command, ...rest] = argv;
  if (command === "create") {
    const { values } = parse(rest, {
      tenant: { type: "string" },
      environment: { type: "string" },
      permissions: { type: "string" },
      name: { type: "string" },
    });
    const tenantId = await tenantIdFor(required(values.tenant, "--tenant"));
    const environment = environmentFlag(values.environment);
    const { apiKey, key } = await createApiKey({
      tenantId,
      environment,
      name: values.name ?? `CLI key ${new Date().toISOString().slice(0, 10)}`,
      permissions: permissionsFlag(values.permissions, "--permissions"),
      actor: cliActor(),
    });
    output(
      values.json,
      { ...apiKey, key, tenant_id: tenantId },
      `API key ${apiKey.id} (${environment}, ${apiKey.permissions.join(" ")})\n  key: ${key}\n  X-Tenant-Id: ${tenantId}\nStore it now: it is not shown again.`,
    );
  } else if (command === "list") {
    const { values } = parse(rest, { tenant: { type: "string" } });
    const tenantId = await tenantIdFor(required(values.tenant, "--tenant"));
    const keys = await listApiKeys(tenantId);
    output(
      values.json,
      keys.map((k) => ({ ...k, tenant_id: tenantId })),
      keys.map((k) => `${k.id}  ${k.environment}  …${k.last4}  ${k.revoked_at ? "revoked" : "active"}  ${k.name}  [${k.permissions.join(" ")}]`).join("\n") || "No keys.",
    );
  } else if (command === "revoke") {
    const { values, positionals } = parse(rest, { tenant: { type: "string" } });
    const id = positionals[0];
    if (!id) throw new UsageError("the key id is required");
    const tenantId = await tenantIdFor(values.tenant, ownerOfApiKey(id)).catch((e: unknown) => {
      if (e instanceof UsageError && !values.tenant) throw notFound("API key");
      throw e;
    });
    const key = await revokeApiKey(tenantId, id, cliActor());
    output(values.json, { ...key, tenant_id: tenantId }, `API key ${key.id} revoked at ${key.revoked_at}.`);
  } else {
    throw new UsageError(`unknown command "${command}"`);
  }
});
