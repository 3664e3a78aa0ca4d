import { createHash } from "node:crypto";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { sharedRedis, type RateLimitStore } from "@/lib/api/rate-limit";

// Password guessing on the panel: after SIGN_IN_FAILURES_ALLOWED wrong passwords for one e-mail within 15 minutes,
// that e-mail cannot sign in (even with the right password) until the window passes; a successful sign-in clears
// the count. With REDIS_URL every instance shares the count, so an attacker gets that many tries in all, not that
// many per instance; if Redis fails, a per-process memory counter takes over until it is back (as for the API's
// rate limits, lib/api/rate-limit.ts). Counters are keyed by a hash of the e-mail: no address is stored in Redis.

export const SIGN_IN_FAILURES_ALLOWED = 10;
const WINDOW_SECONDS = 15 * 60;

const keyOf = (email: string) => createHash("sha256").update(email).digest("base64url");

export class SignInAttempts {
  private readonly limiter: RateLimiterAbstract;

  constructor(store: RateLimitStore, keyPrefix = "panel-sign-in") {
    const options = { points: SIGN_IN_FAILURES_ALLOWED, duration: WINDOW_SECONDS, keyPrefix };
    this.limiter =
      store.kind === "memory"
        ? new RateLimiterMemory(options)
        : new RateLimiterRedis({ ...options, storeClient: store.client, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) });
  }

  /**
   * Takes one of the e-mail's tries for the window, before the password is checked: atomic (one consume), so guesses
   * sent in parallel cannot all pass a check made before any of them is counted. false: none left — refuse without
   * checking. A right password then clears the count (`succeeded`); an attempt that turned out not to be a password
   * check gives its try back (`giveBack`).
   */
  async take(email: string): Promise<boolean> {
    try {
      await this.limiter.consume(keyOf(email), 1);
      return true;
    } catch (err) {
      if (err instanceof RateLimiterRes) return false;
      throw err;
    }
  }

  async giveBack(email: string): Promise<void> {
    await this.limiter.reward(keyOf(email), 1);
  }

  /** Whether this e-mail has used up its tries for the window (a read; sign-in itself goes through `take`). */
  async locked(email: string): Promise<boolean> {
    const seen = await this.limiter.get(keyOf(email));
    return seen !== null && seen.consumedPoints >= SIGN_IN_FAILURES_ALLOWED;
  }

  async succeeded(email: string): Promise<void> {
    await this.limiter.delete(keyOf(email));
  }
}

const holder = globalThis as unknown as { __cpSignInAttempts?: SignInAttempts };

export function signInAttempts(): SignInAttempts {
  if (!holder.__cpSignInAttempts) {
    const redis = sharedRedis();
    holder.__cpSignInAttempts = new SignInAttempts(redis ? { kind: "redis", client: redis } : { kind: "memory" });
  }
  return holder.__cpSignInAttempts;
}

/** Tests run the same cases on memory and on Redis. */
export function setSignInAttemptsForTests(attempts: SignInAttempts | undefined): void {
  holder.__cpSignInAttempts = attempts;
}
