import { createHmac, timingSafeEqual } from "node:crypto";

// The payment provider's notification signature (docs in README "Provider notifications"):
//   X-Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
// Several v1= values may be sent while the provider rotates its secret; any matching one is enough.
// Older than the tolerance (either way) is refused, so a captured request cannot be replayed later.

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type SignatureCheck = "ok" | "malformed" | "mismatch" | "stale";

export function sign(secret: string, timestamp: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
}

export function checkSignature(secret: string, header: string | null, rawBody: string, nowSeconds: number): SignatureCheck {
  if (!header) return "malformed";
  const parts = header.split(",").map((p) => p.trim().split("=") as [string, string | undefined]);
  const t = parts.find(([k]) => k === "t")?.[1];
  const candidates = parts.filter(([k, v]) => k === "v1" && v !== undefined && /^[0-9a-f]{64}$/.test(v)).map(([, v]) => v!);
  if (!t || !/^\d{1,12}$/.test(t) || candidates.length === 0) return "malformed";
  const timestamp = Number(t);
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return "stale";
  const expected = Buffer.from(sign(secret, timestamp, rawBody), "hex");
  return candidates.some((c) => timingSafeEqual(Buffer.from(c, "hex"), expected)) ? "ok" : "mismatch";
}
