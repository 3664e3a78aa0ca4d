import type { Environment } from "@prisma/client";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { ApiError } from "./errors";

// Per tenant + environment, fixed one-minute windows (spec §8: 100/min sandbox, 1,000/min production).
// The counter is atomic in both stores (one JS thread in memory; a single INCR-with-expiry script in
// Redis), so exactly N requests pass when many more race. With REDIS_URL set every process shares the
// Redis counter; if Redis fails, an in-memory limiter takes over (limits then apply per process).

export type RateLimitState = { limit: number; remaining: number; resetAt: number; retryAfter: number };
export type RateLimitStore = { kind: "memory" } | { kind: "redis"; client: Redis };

const DURATION_SECONDS = 60;

export class RateLimits {
  private readonly limiters: Record<Environment, RateLimiterAbstract>;
  readonly limits: Record<Environment, number>;

  constructor(store: RateLimitStore, limits: Record<Environment, number>, keyPrefix = "rl") {
    this.limits = limits;
    const build = (environment: Environment) =>
      limiterOn(store, { points: limits[environment], duration: DURATION_SECONDS, keyPrefix: `${keyPrefix}:${environment}` });
    this.limiters = { sandbox: build("sandbox"), production: build("production") };
  }

  /** Consumes one request; throws ApiError("rate_limited") with Retry-After when over the limit. */
  async consume(tenantId: string, environment: Environment): Promise<RateLimitState> {
    const limit = this.limits[environment];
    try {
      const res = await this.limiters[environment].consume(tenantId, 1);
      return state(limit, res);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      const s = state(limit, err);
      throw new ApiError("rate_limited", `Rate limit of ${limit} requests per minute exceeded; retry after ${s.retryAfter} s`, {
        headers: { ...rateLimitHeaders(s), "retry-after": String(s.retryAfter) },
      });
    }
  }
}

function state(limit: number, res: RateLimiterRes): RateLimitState {
  const msBeforeNext = Math.max(0, res.msBeforeNext);
  return {
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetAt: Math.ceil((Date.now() + msBeforeNext) / 1000),
    retryAfter: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  };
}

/** X-RateLimit-Reset is the Unix epoch second at which the current window ends. */
export function rateLimitHeaders(s: RateLimitState): Record<string, string> {
  return {
    "x-ratelimit-limit": String(s.limit),
    "x-ratelimit-remaining": String(s.remaining),
    "x-ratelimit-reset": String(s.resetAt),
  };
}

/** A counter of `points` per `duration` seconds on `store`. In Redis, when it is unreachable (not ready, or a command
 *  fails or times out) the insurance limiter — a per-process memory limiter with the same options — answers instead,
 *  so the API keeps serving during an outage (limits then apply per instance) and goes back to Redis by itself when it
 *  reconnects. Every limiter of the app (rate limits, sign-in attempts, failed authentication) is built here. */
export function limiterOn(store: RateLimitStore, options: { points: number; duration: number; keyPrefix: string }): RateLimiterAbstract {
  if (store.kind === "memory") return new RateLimiterMemory(options);
  return new RateLimiterRedis({ ...options, storeClient: store.client, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) });
}

/** Where this process's limiters count: the shared Redis with REDIS_URL, memory otherwise. */
export function sharedLimiterStore(): RateLimitStore {
  const redis = sharedRedis();
  return redis ? { kind: "redis", client: redis } : { kind: "memory" };
}

const holder = globalThis as unknown as { __cpRateLimits?: RateLimits };

export function rateLimits(): RateLimits {
  if (holder.__cpRateLimits) return holder.__cpRateLimits;
  const env = getEnv();
  holder.__cpRateLimits = new RateLimits(sharedLimiterStore(), {
    sandbox: env.RATE_LIMIT_SANDBOX_PER_MINUTE,
    production: env.RATE_LIMIT_PRODUCTION_PER_MINUTE,
  });
  return holder.__cpRateLimits;
}

const redisHolder = globalThis as unknown as { __cpRedis?: Redis };

/** The process's one Redis client (REDIS_URL; rate limits and panel sign-in attempts), or null without one. */
export function sharedRedis(): Redis | null {
  const url = getEnv().REDIS_URL;
  if (!url) return null;
  return (redisHolder.__cpRedis ??= redisClient(url));
}

/** A Redis client that never makes a request wait: no offline queue (a command fails at once while
 *  disconnected), bounded connect and command times, reconnection with capped backoff, and one log line
 *  when Redis goes away and one when it is back (ioredis reports an error on every reconnect attempt).
 *  `commandTimeout` (ms, default 500) is for tests whose own load would otherwise outlast it. */
export function redisClient(url: string, options: { commandTimeout?: number } = {}): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: options.commandTimeout ?? 500,
    retryStrategy: (attempt) => Math.min(5000, 100 * 2 ** Math.min(attempt, 6)),
  });
  let down = false;
  const lost = (reason: string) => {
    if (down) return;
    down = true;
    log().warn({ err: reason }, "redis unavailable: rate limits and sign-in attempt counts fall back to per-instance memory counters");
  };
  client.on("error", (err: Error) => lost(err.message));
  client.on("reconnecting", () => lost("connection lost")); // not emitted for a deliberate quit()
  client.on("ready", () => {
    if (!down) return;
    down = false;
    log().info("redis available again: rate limits and sign-in attempt counts shared through redis");
  });
  return client;
}

/** Tests swap the store (memory ↔ Redis) and run the same cases against both. */
export function setRateLimitsForTests(limits: RateLimits | undefined): void {
  holder.__cpRateLimits = limits;
}
