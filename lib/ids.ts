import { randomFillSync } from "node:crypto";
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
  reservationRecovery: "mrr",
  endorsement: "end",
  payment: "pay",
  refund: "rfd",
  repasseEntry: "rep",
  charge: "chg",
  settlement: "stl",
  settlementBatch: "stb",
  assignment: "asg",
  webhookEndpoint: "whe",
  webhookDelivery: "whd",
  webhookAttempt: "wha",
  invitation: "inv",
  email: "eml",
  passwordReset: "pwr",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

// One generator, made once: ulid() resolves its random source again on every call (~80 µs), the
// factory does not (~3 µs), and ids made in the same millisecond still sort in creation order.
// Its random source is ulid's own (one CSPRNG byte / 256 per character, 16 per id), but drawn from a pool
// refilled 4 KiB at a time: ulid's default asks crypto for one byte per character (16 calls per id).
const POOL = new Uint8Array(4096);
let poolIndex = POOL.length;

function pooledRandom(): number {
  if (poolIndex === POOL.length) {
    randomFillSync(POOL);
    poolIndex = 0;
  }
  const byte = POOL[poolIndex]!;
  poolIndex += 1;
  return byte / 256;
}

const ulid = monotonicFactory(pooledRandom);

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${ulid()}`;
}
