import { monotonicFactory } from "ulid";

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
  customer: "cus",
  simulation: "sim",
  proposal: "prp",
  contract: "ctr",
  installment: "ins",
  riskAssessment: "rsk",
  marginQuery: "mgq",
  marginReservation: "mgr",
  endorsement: "end",
  payment: "pay",
  repasseEntry: "rep",
  charge: "chg",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

// One generator, made once: ulid() resolves its random source again on every call (~80 µs), the
// factory does not (~3 µs), and ids made in the same millisecond still sort in creation order.
const ulid = monotonicFactory();

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${ulid()}`;
}
