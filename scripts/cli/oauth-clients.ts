import { createOAuthClient, listOAuthClients, revokeOAuthClient } from "@/lib/auth/oauth-clients";
import { notFound } from "@/lib/errors";
import { cliActor, output, parse, required, runCli, UsageError } from "./common";
import { environmentFlag, ownerOfOAuthClient, permissionsFlag, tenantIdFor } from "./credential-flags";

const USAGE = `Usage:
  npm run oauth-clients -- create --tenant <slug> --environment sandbox|production [--scopes "read write"] [--name <name>] [--json]
  npm run oauth-clients -- list --tenant <slug> [--json]
  npm run oauth-clients -- revoke <oauth client id> [--tenant <slug>] [--json]

The client secret is printed once; only its hash is stored. Get tokens with POST /v1/auth/token.`;

await runCli(USAGE, async (argv) => {
  const [command, ...rest] = argv;
  if (command === "create") {
    const { values } = parse(rest, {
      tenant: { type: "string" },
      environment: { type: "string" },
      scopes: { type: "string" },
      name: { type: "string" },
    });
    const tenantId = await tenantIdFor(required(values.tenant, "--tenant"));
    const environment = environmentFlag(values.environment);
    const { client, clientSecret } = await createOAuthClient({
      tenantId,
      environment,
      name: values.name ?? `CLI client ${new Date().toISOString().slice(0, 10)}`,
      scopes: permissionsFlag(values.scopes, "--scopes"),
      actor: cliActor(),
    });
    output(
      values.json,
      { ...client, client_secret: clientSecret, tenant_id: tenantId },
      `OAuth client ${client.id} (${environment}, scopes: ${client.scopes.join(" ")})\n  client_id: ${client.client_id}\n  client_secret: ${clientSecret}\n  X-Tenant-Id: ${tenantId}\nStore the secret now: it is not shown again.`,
    );
  } else if (command === "list") {
    const { values } = parse(rest, { tenant: { type: "string" } });
    const tenantId = await tenantIdFor(required(values.tenant, "--tenant"));
    const clients = await listOAuthClients(tenantId);
    output(
      values.json,
      clients.map((c) => ({ ...c, tenant_id: tenantId })),
      clients.map((c) => `${c.id}  ${c.environment}  ${c.client_id}  ${c.revoked_at ? "revoked" : "active"}  ${c.name}  [${c.scopes.join(" ")}]`).join("\n") || "No OAuth clients.",
    );
  } else if (command === "revoke") {
    const { values, positionals } = parse(rest, { tenant: { type: "string" } });
    const id = positionals[0];
    if (!id) throw new UsageError("the OAuth client id is required");
    const tenantId = await tenantIdFor(values.tenant, ownerOfOAuthClient(id)).catch((e: unknown) => {
      if (e instanceof UsageError && !values.tenant) throw notFound("OAuth client");
      throw e;
    });
    const client = await revokeOAuthClient(tenantId, id, cliActor());
    output(values.json, { ...client, tenant_id: tenantId }, `OAuth client ${client.id} revoked at ${client.revoked_at}.`);
  } else {
    throw new UsageError(`unknown command "${command}"`);
  }
});
