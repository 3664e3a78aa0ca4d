import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { addressKey, CLIENT_ADDRESS_HEADER } from "@/lib/http/client-address";
import { ApiError } from "./errors";
import { limiterOn, sharedLimiterStore, type RateLimitStore } from "./rate-limit";

// Failed authentication per client address. The per-tenant rate limit (./rate-limit.ts) charges a caller once it is
// known; a request whose API key or client secret is unknown has no tenant to charge, so nothing bounded how many of
// them one address could send — each a lookup in the database. After AUTH_FAILURES_PER_ADDRESS such failures from one
// address (IPv4, or an IPv6 /64) within a minute, until the minute is over that address's requests whose credential
// would need a lookup are refused with 429 `too_many_failed_authentications` and Retry-After (lib/api/route.ts). A
// credential this process has found valid within its cache's minute still passes — an integrator whose stale worker
// hammers a rotated-out key keeps its valid keys and token requests working — and access tokens are never counted nor
// refused here: a forged one fails its signature before any lookup, and an expired one is a normal part of its life.
// Successful requests cost nothing here.
//
// The count lives where the rate limits live (Redis with REDIS_URL, shared by every instance, memory otherwise or while
// Redis is down). The refusal itself is decided from memory — an address's "blocked until" learned when its count ran
// out — so a successful request never waits on Redis for this; another instance learns the block at the address's next
// failure there.

export const AUTH_FAILURES_PER_ADDRESS = 60;
const WINDOW_SECONDS = 60;
const MAX_BLOCKED = 10_000;

export class AuthFailures {
  private readonly limiter: RateLimiterAbstract;
  private readonly blockedUntil = new Map<string, number>();

  constructor(store: RateLimitStore, readonly allowed = AUTH_FAILURES_PER_ADDRESS, keyPrefix = "auth-failures") {
    this.limiter = limiterOn(store, { points: allowed, duration: WINDOW_SECONDS, keyPrefix });
  }

  /** The 429 to answer instead of authenticating, while this address is blocked; null otherwise. */
  refusal(request: Request): ApiError | null {
    if (this.blockedUntil.size === 0) return null; // every /v1 request asks: no parsing or hashing while none is blocked
    const key = addressKey(request.headers.get(CLIENT_ADDRESS_HEADER));
    const until = key ? this.blockedUntil.get(key) : undefined;
    if (until === undefined) return null;
    const now = Date.now();
    if (until <= now) {
      this.blockedUntil.delete(key!);
      return null;
    }
    return blocked(Math.max(1, Math.ceil((until - now) / 1000)));
  }

  /** Counts a failed authentication; the 429 to answer instead of the 401 once the address has used up its minute. */
  async failed(request: Request): Promise<ApiError | null> {
    const key = addressKey(request.headers.get(CLIENT_ADDRESS_HEADER));
    if (!key) return null;
    try {
      // The last allowed failure still answers its 401; from the next request on, the address is refused.
      const res = await this.limiter.consume(key, 1);
      if (res.remainingPoints <= 0) this.block(key, res.msBeforeNext);
      return null;
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) return null; // the store failed (the insurance limiter too): the 401 stands
      return blocked(Math.ceil(this.block(key, err.msBeforeNext) / 1000));
    }
  }

  private block(key: string, msBeforeNext: number): number {
    const ms = Math.max(1000, msBeforeNext);
    if (this.blockedUntil.size >= MAX_BLOCKED) this.blockedUntil.clear();
    this.blockedUntil.set(key, Date.now() + ms);
    return ms;
  }
}

const blocked = (retryAfter: number) =>
  new ApiError(
    "too_many_failed_authentications",
    `Too many requests with an unknown or revoked credential from this address; retry after ${retryAfter} s with a valid one`,
    { headers: { "retry-after": String(retryAfter) } },
  );

const holder = globalThis as unknown as { __cpAuthFailures?: AuthFailures };

export function authFailures(): AuthFailures {
  return (holder.__cpAuthFailures ??= new AuthFailures(sharedLimiterStore()));
}

/** Tests run the same cases on memory and on Redis, with a small allowance. */
export function setAuthFailuresForTests(failures: AuthFailures | undefined): void {
  holder.__cpAuthFailures = failures;
}
