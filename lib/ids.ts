import { ulid } from "ulid";

// Prefixed, time-sortable ids (Stripe-style): the prefix names the type of object.
export const ID_PREFIXES = {
  tenant: "ten",
  user: "usr",
  apiKey: "key",
  oauthClient: "oac",
  refreshToken: "rft",
  audit: "aud",
  event: "evt",
  request: "req",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${ulid()}`;
}
