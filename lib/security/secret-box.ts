import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getEnv } from "@/lib/env";
import { webhookSecretsKeyFrom } from "./secrets-key";

// Secrets at rest that the platform must read back, so unlike API keys cannot be hashed: webhook signing secrets
// (the platform signs with them) and unsent e-mails (they carry invitation links; lib/mail/outbox.ts).
// AES-256-GCM under a key from WEBHOOK_SECRETS_KEY (32 bytes, base64), or — when unset — derived by HKDF from
// AUTH_JWT_SECRET (one secret less to manage in development and tests; production requires its own key, lib/env.ts,
// so rotating one never touches the other). Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url), with the row (its id,
// or `email:<id>`) as associated data: a ciphertext copied to another row does not decrypt.

let cached: { source: string; key: Buffer } | undefined;

function key(): Buffer {
  const env = getEnv();
  const source = env.WEBHOOK_SECRETS_KEY ?? `jwt:${env.AUTH_JWT_SECRET}`;
  if (cached?.source === source) return cached.key;
  const derived = env.WEBHOOK_SECRETS_KEY ? Buffer.from(env.WEBHOOK_SECRETS_KEY, "base64") : webhookSecretsKeyFrom(env.AUTH_JWT_SECRET);
  cached = { source, key: derived };
  return derived;
}

export function sealSecret(secret: string, rowId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  cipher.setAAD(Buffer.from(rowId));
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

export function openSecret(sealed: string, rowId: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new Error("Unknown sealed secret format");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(rowId));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}
