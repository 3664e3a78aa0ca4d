import { createHash } from "node:crypto";
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { limiterOn, sharedLimiterStore, type RateLimitStore } from "@/lib/api/rate-limit";
import { addressKey } from "@/lib/http/client-address";

// Password guessing on the panel: after SIGN_IN_FAILURES_ALLOWED wrong passwords for one e-mail within 15 minutes,
// that e-mail cannot sign in (even with the right password) until the window passes; a successful sign-in clears
// the count. With REDIS_URL every instance shares the count, so an attacker gets that many tries in all, not that
// many per instance; if Redis fails, a per-process memory counter takes over until it is back (as for the API's
// rate limits, lib/api/rate-limit.ts). Counters are keyed by a hash of the e-mail: no address is stored in Redis.
//
// One password tried against many e-mails passes every e-mail's count, and each try still costs an argon2 check
// (an unknown e-mail too): so the sign-in form also counts per client address, when it knows it (see `take`), at
// most SIGN_IN_FAILURES_PER_ADDRESS failed sign-ins within the same 15 minutes. Only failures count there: a success
// gives its try back (an office behind one NAT signs in all morning) but clears nothing, so it does not reset the
// address's count for other e-mails. An IPv6 address counts with its /64 (one subscriber's prefix: any host of it).

export const SIGN_IN_FAILURES_ALLOWED = 10;
export const SIGN_IN_FAILURES_PER_ADDRESS = 30;
const WINDOW_SECONDS = 15 * 60;

const hashed = (value: string) => createHash("sha256").update(value).digest("base64url");

export class SignInAttempts {
  private readonly perEmail: RateLimiterAbstract;
  private readonly perAddress: RateLimiterAbstract;

  constructor(store: RateLimitStore, keyPrefix = "panel-sign-in") {
    const build = (points: number, prefix: string) => limiterOn(store, { points, duration: WINDOW_SECONDS, keyPrefix: prefix });
    this.perEmail = build(SIGN_IN_FAILURES_ALLOWED, keyPrefix);
    this.perAddress = build(SIGN_IN_FAILURES_PER_ADDRESS, `${keyPrefix}-address`);
  }

  /**
   * Takes one of the e-mail's tries for the window — and one of the client address's, when given — before the
   * password is checked: atomic (one consume each), so guesses sent in parallel cannot all pass a check made before
   * any of them is counted. false: none left — refuse without checking. A right password then clears the e-mail's
   * count (`succeeded`); an attempt that turned out not to be a password check gives its tries back (`giveBack`).
   * The address is taken first: a refused address spends none of the e-mail's tries (a sprayer cannot lock out the
   * e-mails it never got to guess), and a locked e-mail gives the address its try back (nothing was checked).
   */
  async take(email: string, address?: string | null): Promise<boolean> {
    const from = addressKey(address);
    if (from && !(await consumed(this.perAddress, from))) return false;
    if (await consumed(this.perEmail, hashed(email))) return true;
    if (from) await this.perAddress.reward(from, 1);
    return false;
  }

  async giveBack(email: string, address?: string | null): Promise<void> {
    await this.perEmail.reward(hashed(email), 1);
    const from = addressKey(address);
    if (from) await this.perAddress.reward(from, 1);
  }

  /** Whether this e-mail has used up its tries for the window (a read; sign-in itself goes through `take`). */
  async locked(email: string): Promise<boolean> {
    const seen = await this.perEmail.get(hashed(email));
    return seen !== null && seen.consumedPoints >= SIGN_IN_FAILURES_ALLOWED;
  }

  /** The right password: the e-mail's count starts over; the address only gets this try back (not a reset). */
  async succeeded(email: string, address?: string | null): Promise<void> {
    await this.perEmail.delete(hashed(email));
    const from = addressKey(address);
    if (from) await this.perAddress.reward(from, 1);
  }
}

async function consumed(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
  try {
    await limiter.consume(key, 1);
    return true;
  } catch (err) {
    if (err instanceof RateLimiterRes) return false;
    throw err;
  }
}

const holder = globalThis as unknown as { __cpSignInAttempts?: SignInAttempts };

export function signInAttempts(): SignInAttempts {
  return (holder.__cpSignInAttempts ??= new SignInAttempts(sharedLimiterStore()));
}

/** Tests run the same cases on memory and on Redis. */
export function setSignInAttemptsForTests(attempts: SignInAttempts | undefined): void {
  holder.__cpSignInAttempts = attempts;
}
