import { z } from "zod";

// The token endpoint's form (RFC 6749 §4.4 and §6). Unknown parameters are ignored, as §3.2 requires.
export const TokenRequest = z
  .object({
    // Any other value is RFC 6749's `unsupported_grant_type` (400), not a validation error: a string here, the two
    // values in the document.
    grant_type: z.string().trim().min(1).meta({ description: "`client_credentials` or `refresh_token`.", enum: ["client_credentials", "refresh_token"] }),
    client_id: z.string().trim().optional().meta({ description: "The client's id (or use HTTP Basic)." }),
    client_secret: z.string().optional().meta({ description: "The client's secret (or use HTTP Basic)." }),
    scope: z.string().optional().meta({ description: "Space-separated scopes, e.g. `read write`; default: all of the client's." }),
    refresh_token: z.string().optional().meta({ description: "With grant_type=refresh_token: the refresh token to rotate." }),
  })
  .meta({ id: "TokenRequest" });
export type TokenRequest = z.infer<typeof TokenRequest>;

export const TokenResponse = z
  .object({
    access_token: z.string().meta({ description: "JWT access token (RFC 9068), valid for `expires_in` seconds." }),
    token_type: z.literal("Bearer"),
    expires_in: z.literal(3600).meta({ type: "integer", description: "Seconds the access token is valid: 3600.", example: 3600 }),
    scope: z.string().meta({ example: "read write" }),
    refresh_token: z.string().meta({ description: "Single-use refresh token; rotates on every use; its grant ends 30 days after client_credentials." }),
    refresh_token_expires_in: z.number().int().meta({ description: "Seconds left until the grant's end (2592000 on the first grant; rotation does not extend it).", example: 2592000 }),
  })
  .meta({ id: "TokenResponse" });
