import { hkdfSync } from "node:crypto";

// Apart from ./secret-box.ts, which reads the configuration: `npm run dev` derives the development key
// (scripts/lib/dev-env.ts) before anything else loads.

/** The key used when WEBHOOK_SECRETS_KEY is unset (development and tests): HKDF-SHA256 of AUTH_JWT_SECRET. */
export function webhookSecretsKeyFrom(authJwtSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", authJwtSecret, "credit-platform", "webhook-secrets/v1", 32));
}
