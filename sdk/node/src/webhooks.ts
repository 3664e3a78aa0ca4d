import { Webhook, WebhookVerificationError } from "standardwebhooks";

// Verifying what the platform POSTs to your endpoint (Standard Webhooks): the signature over
// `{webhook-id}.{webhook-timestamp}.{raw body}` with your endpoint's `whsec_…` secret, and a timestamp within
// 5 minutes of your clock. During a secret rotation pass both secrets: either one verifies.

export type WebhookEvent<T = Record<string, unknown>> = {
  id: string;
  type: string;
  created_at: string;
  tenant_id: string;
  environment: "sandbox" | "production";
  data: T;
};

export { WebhookVerificationError };

/** The verified event, or a WebhookVerificationError. `body` must be the raw request body, byte for byte. */
export function verifyWebhook<T = Record<string, unknown>>(body: string, headers: Headers | Record<string, string | string[] | undefined>, secret: string | string[]): WebhookEvent<T> {
  const flat: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((value, key) => (flat[key] = value));
  else for (const [key, value] of Object.entries(headers)) if (value !== undefined) flat[key.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  let last: unknown;
  for (const s of Array.isArray(secret) ? secret : [secret]) {
    try {
      return new Webhook(s).verify(body, flat) as WebhookEvent<T>;
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof WebhookVerificationError ? last : new WebhookVerificationError("No matching signature found");
}
