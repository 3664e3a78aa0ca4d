import { isListening, listenerEpoch, onInvalidation, startListener } from "@/lib/db/notifications";

// In-process cache of credential lookups (the hot path of every /v1 request).
// Correctness rules:
// - Entries are used only while the LISTEN/NOTIFY invalidation channel is connected, so a revocation
//   committed anywhere drops the entry before the next request; entries also expire after MAX_AGE_MS.
// - A generation counter stops a lookup that raced with an invalidation from caching its stale answer; the
//   listener bumps it (invalidates "*") at every successful LISTEN.
// - A lookup's answer is cached only if one listener connection was listening from the moment the lookup
//   started until it finished: a revocation committed while no one listened was never announced, and a value
//   read then would be served until MAX_AGE_MS.
// - Misses (unknown keys) are never cached: random garbage cannot grow the map. A credential found revoked may be
//   cached as REVOKED where its caller knows it is real (an access token whose signature verified names its client):
//   revocation is permanent, so no later change can make that answer stale; the rules above apply to it all the same.

const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 10_000;

type Entry = { value: unknown; expiresAt: number };
const entries = new Map<string, Entry>();
let generation = 0;

onInvalidation((key) => invalidateLocal(key));

export function invalidateLocal(key: string): void {
  generation += 1;
  if (key === "*") entries.clear();
  else entries.delete(key);
}

/** A lookup's answer for a credential that exists but was revoked: cached like a credential, yet it grants nothing,
 *  and `isCached` does not count it (it is no credential found valid). */
export const REVOKED: Revoked = Object.freeze({ revoked: true });
export type Revoked = { readonly revoked: true };

export const isRevoked = (value: object | null): value is Revoked => value === REVOKED;

export async function cachedLookup<T>(key: string, load: () => Promise<T | null>): Promise<T | null> {
  if (!isListening()) void startListener();
  const now = Date.now();
  if (isListening()) {
    const hit = entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value as T;
  }
  const startedAt = generation;
  const epoch = listenerEpoch();
  const value = await load();
  if (value !== null && epoch !== null && listenerEpoch() === epoch && generation === startedAt) {
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(key, { value, expiresAt: now + MAX_AGE_MS });
  }
  return value;
}

/** Whether `key` has a live cached credential, i.e. resolving it needs no lookup and finds it valid (a decision taken
 *  before one; answers still come from `cachedLookup`). A cached REVOKED is not one. */
export function isCached(key: string): boolean {
  if (!isListening()) return false;
  const hit = entries.get(key);
  return hit !== undefined && hit.expiresAt > Date.now() && hit.value !== REVOKED;
}

export const cacheKeys = {
  apiKey: (keyHash: string) => `api_key:${keyHash}`,
  oauthClient: (clientId: string) => `oauth_client:${clientId}`,
  tokenFamily: (familyId: string) => `token_family:${familyId}`,
};
