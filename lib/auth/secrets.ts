import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

// Secrets (API keys, client secrets, refresh tokens) are 256-bit random values shown once and stored
// only as SHA-256 hashes: a stolen database yields nothing that authenticates. SHA-256 (not a slow hash)
// is right here because the secrets are high-entropy; passwords use argon2 (passwords.ts).

export function randomSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString("base64url")}`;
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

export function safeEqualHex(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

export function lastFour(secret: string): string {
  return secret.slice(-4);
}
