import type { Credential } from "./credential";
import { DomainError } from "@/lib/errors";
import { findActiveClient } from "./oauth-clients";
import type { TokenRequest } from "./token-request";
import { issueClientCredentialsToken, refreshAccessToken, type TokenResponse } from "./tokens";

// POST /v1/auth/token — the client is already authenticated by the wrapper; this picks the grant.
export async function exchangeToken(client: Credential, form: TokenRequest): Promise<TokenResponse> {
  const active = client.clientId ? await findActiveClient(client.clientId) : null;
  if (!active || active.id !== client.id) throw new DomainError("invalid_client", "The client is not active");
  switch (form.grant_type) {
    case "client_credentials":
      return issueClientCredentialsToken(active, form.scope);
    case "refresh_token":
      if (!form.refresh_token) throw new DomainError("invalid_request", "refresh_token is required");
      return refreshAccessToken(active, form.refresh_token, form.scope);
    default:
      throw new DomainError("unsupported_grant_type", `grant_type "${form.grant_type}" is not supported`);
  }
}

