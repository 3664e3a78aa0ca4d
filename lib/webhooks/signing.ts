import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

// Standard Webhooks (standardwebhooks.com) signing, by the reference `standardwebhooks` package: the headers
// `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature` ("v1,<base64 HMAC-SHA256 of
// `<id>.<timestamp>.<body>`>", space-separated when several secrets sign — during a rotation's grace period the
// old and the new secret both sign, so a receiver holding either verifies). Secrets are `whsec_` + base64 of 32
// random bytes, as the specification's libraries expect.

export const SECRET_PREFIX = "whsec_";

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

export type SignedHeaders = { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string };

/** The headers of one delivery attempt of `body` (the exact bytes sent), signed with every given secret. */
export function signatureHeaders(messageId: string, timestamp: Date, body: string, secrets: readonly string[]): SignedHeaders {
  if (secrets.length === 0) throw new RangeError("At least one signing secret");
  const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body));
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}

/** The payload every delivery carries: the event as the outbox stored it. */
export type EventEnvelope = { id: string; type: string; created_at: string; tenant_id: string; environment: "sandbox" | "production"; data: unknown };

export function envelope(event: { id: string; type: string; createdAt: Date; tenantId: string; environment: "sandbox" | "production"; payload: unknown }): EventEnvelope {
  return { id: event.id, type: event.type, created_at: event.createdAt.toISOString(), tenant_id: event.tenantId, environment: event.environment, data: event.payload };
}
