import type { Environment } from "@prisma/client";
import { createHmac, timingSafeEqual } from "node:crypto";
import { getEnv } from "@/lib/env";

// The printable payment page (`payment_page_url`): what an integrator sends the borrower, who has no
// credential. The URL itself is the capability: the charge id and an HMAC of it under a key derived from
// AUTH_JWT_SECRET, so it cannot be guessed from an id, needs no storage, and is served only on the address
// of the charge's environment.

const ID = /^chg_[0-9A-HJKMNP-TV-Z]{26}$/;

let pageKey: { secret: string; key: Buffer } | undefined;

/** HMAC of the charge id under the page key (derived once per AUTH_JWT_SECRET: every charge serialized signs). */
function signature(chargeId: string): string {
  const secret = getEnv().AUTH_JWT_SECRET;
  if (pageKey?.secret !== secret) pageKey = { secret, key: createHmac("sha256", secret).update("credit-platform/payment-page/v1").digest() };
  return createHmac("sha256", pageKey.key).update(chargeId).digest("base64url");
}

export function paymentPageUrl(chargeId: string, environment: Environment): string {
  const env = getEnv();
  const base = environment === "sandbox" ? env.SANDBOX_BASE_URL : env.PRODUCTION_BASE_URL;
  return `${base.replace(/\/$/, "")}/pay/${chargeId}.${signature(chargeId)}`;
}

/** The charge id a page token names, or null when the token is malformed or not ours. */
export function chargeIdOfPageToken(token: string): string | null {
  const dot = token.indexOf(".");
  if (dot < 0) return null;
  const id = token.slice(0, dot);
  if (!ID.test(id)) return null;
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(signature(id));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
