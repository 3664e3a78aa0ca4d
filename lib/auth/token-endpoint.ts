import { DomainError } from "@/lib/errors";
import type { ActiveClient } from "./oauth-clients";
import type { TokenRequest } from "./token-request";
import { issueClientCredentialsToken, refreshAccessToken, type TokenResponse } from "./tokens";

// POST /v1/auth/token — the client is already authenticated (and found still active) by the wrapper; this picks the grant.
export async function exchangeToken(client: ActiveClient, form: TokenRequest): Promise<TokenResponse> {
  switch (form.grant_type) {
    case "client_credentials":
      return issueClientCredentialsToken(client, form.scope);
    case "refresh_token":
      if (!form.refresh_token) throw new DomainError("invalid_request", "refresh_token is required");
      return refreshAccessToken(client, form.refresh_token, form.scope);
    default:
      throw new DomainError("unsupported_grant_type", `grant_type "${form.grant_type}" is not supported`);
  }
}
