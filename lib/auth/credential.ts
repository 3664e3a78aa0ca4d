import type { Environment } from "@prisma/client";

// What every /v1 request knows about its caller once authenticated. Tenant and environment come from
// here and nowhere else: services scope every query by them.
export type Credential = {
  kind: "api_key" | "access_token" | "oauth_client";
  /** The API key id (key_…) or the OAuth client's id (oac_…). */
  id: string;
  tenantId: string;
  environment: Environment;
  permissions: readonly string[];
  /** The OAuth client_id, for OAuth clients and their access tokens. */
  clientId?: string;
  /** For the audit log: who did it. */
  label: string;
};

export type { Environment };
export const ENVIRONMENTS = ["sandbox", "production"] as const satisfies readonly Environment[];

/** How long a revoked API key or OAuth client stays in the credential lists (panel, CLI); the audit log keeps it after. */
export const REVOKED_SHOWN_DAYS = 90;
