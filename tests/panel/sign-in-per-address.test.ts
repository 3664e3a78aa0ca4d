import type http from "node:http";
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { redisClient, type RateLimitStore } from "@/lib/api/rate-limit";
import { verifyPassword } from "@/lib/auth/passwords";
import { CLIENT_ADDRESS_HEADER, clientAddressOf, stampClientAddress } from "@/lib/http/client-address";
import { authorizeSignIn, SIGN_IN_FAILURES_PER_ADDRESS, SIGN_IN_UNAVAILABLE, signInAddress, TOO_MANY_ATTEMPTS } from "@/lib/panel/auth-options";
import { SignInAttempts, setSignInAttemptsForTests } from "@/lib/panel/sign-in-attempts";
import { newTenant } from "../helpers/factory";

// One password tried against many e-mails: the sign-in form also counts the client address's failed sign-ins,
// whatever the e-mails, and refuses past the limit before any account is read or password checked — the same answer
// as an e-mail's lock. Run on memory and, with REDIS_URL, on Redis (lib/panel/sign-in-attempts.ts).

vi.mock("@/lib/auth/passwords", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/auth/passwords")>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});
const passwordChecks = () => vi.mocked(verifyPassword).mock.calls.length;

const redisUrl = process.env.REDIS_URL;
const clients: Redis[] = [];
afterAll(() => clients.forEach((client) => client.disconnect()));
const stores: [string, () => Promise<RateLimitStore>][] = [["memory", async () => ({ kind: "memory" })]];
if (redisUrl) {
  stores.push(["redis", async () => {
    const client = redisClient(redisUrl);
    clients.push(client);
    await new Promise((resolve) => client.once("ready", resolve));
    return { kind: "redis", client };
  }]);
}

const PASSWORD = "correct horse battery";
let lastOctet = 0;
const anAddress = () => `198.51.100.${++lastOctet}`;

describe.each(stores)("panel sign-in, per client address (%s store)", (_name, makeStore) => {
  let attempts: SignInAttempts;
  beforeEach(async () => {
    attempts = new SignInAttempts(await makeStore(), `sign-in-address-test-${randomBytes(4).toString("hex")}`);
    setSignInAttemptsForTests(attempts);
  });
  afterEach(() => setSignInAttemptsForTests(undefined));

  it("refuses an address that failed across many e-mails before any password check; another address still signs in", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    const sprayer = anAddress();
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS; i++) {
      expect(await authorizeSignIn({ email: `person-${i}@${tenant.slug}.test`, password: "Summer2026!" }, sprayer)).toBeNull();
    }
    const checked = passwordChecks();
    await expect(authorizeSignIn({ email: `person-x@${tenant.slug}.test`, password: "Summer2026!" }, sprayer)).rejects.toThrow(TOO_MANY_ATTEMPTS);
    await expect(authorizeSignIn({ email, password: PASSWORD }, sprayer)).rejects.toThrow(TOO_MANY_ATTEMPTS);
    expect(passwordChecks()).toBe(checked);
    // The refusals spent none of the e-mail's own tries: from elsewhere the owner signs in.
    expect(await attempts.locked(email)).toBe(false);
    expect(await authorizeSignIn({ email, password: PASSWORD }, anAddress())).toMatchObject({ id: ownerUserId, email });
    expect(passwordChecks()).toBe(checked + 1);
  });

  it("counts only failures: a success neither uses an address's tries nor resets the failures counted", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    const office = anAddress();
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS - 1; i++) {
      expect(await authorizeSignIn({ email: `person-${i}@${tenant.slug}.test`, password: "wrong" }, office)).toBeNull();
    }
    for (let i = 0; i < 3; i++) expect(await authorizeSignIn({ email, password: PASSWORD }, office)).toMatchObject({ id: ownerUserId });
    expect(await authorizeSignIn({ email: `person-last@${tenant.slug}.test`, password: "wrong" }, office)).toBeNull();
    await expect(authorizeSignIn({ email, password: PASSWORD }, office)).rejects.toThrow(TOO_MANY_ATTEMPTS);
  });

  it("sign-ins sent in parallel from one address get no more tries than sent one by one", async () => {
    const { tenant } = await newTenant();
    const sprayer = anAddress();
    const burst = await Promise.allSettled(
      Array.from({ length: 2 * SIGN_IN_FAILURES_PER_ADDRESS }, (_, i) => authorizeSignIn({ email: `p${i}@${tenant.slug}.test`, password: "Summer2026!" }, sprayer)),
    );
    expect(burst.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<unknown>).value)).toEqual(Array(SIGN_IN_FAILURES_PER_ADDRESS).fill(null));
    const refused = burst.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    expect(refused.map((r) => (r.reason as Error).message)).toEqual(Array(SIGN_IN_FAILURES_PER_ADDRESS).fill(TOO_MANY_ATTEMPTS));
  });

  it("counts an IPv6 address with its /64 and an IPv4-mapped address as the IPv4 one", async () => {
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS; i++) expect(await attempts.take(`v6-${i}@example.test`, `2001:db8:aa:1::${(i + 1).toString(16)}`)).toBe(true);
    expect(await attempts.take("v6-next@example.test", "2001:0db8:00aa:0001:ffff:ffff:ffff:fffe")).toBe(false);
    expect(await attempts.take("v6-next@example.test", "2001:db8:aa:2::1")).toBe(true);
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS; i++) expect(await attempts.take(`v4-${i}@example.test`, "::ffff:203.0.113.9")).toBe(true);
    expect(await attempts.take("v4-next@example.test", "203.0.113.9")).toBe(false);
    // Not an address (a proxy's "unknown"): nothing to count it against, the e-mail's count still applies.
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS + 1; i++) expect(await attempts.take(`odd-${i}@example.test`, "unknown")).toBe(true);
  });

  it("a password that could not be checked (the database or the hash failed) spends no try and says so, without the cause", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    const office = anAddress();
    vi.mocked(verifyPassword).mockRejectedValue(new Error("Can't reach database server at db.internal:5432"));
    try {
      for (let i = 0; i < SIGN_IN_FAILURES_PER_ADDRESS + 5; i++) {
        await expect(authorizeSignIn({ email, password: PASSWORD }, office)).rejects.toThrow(new Error(SIGN_IN_UNAVAILABLE));
      }
    } finally {
      vi.mocked(verifyPassword).mockImplementation((await vi.importActual<typeof import("@/lib/auth/passwords")>("@/lib/auth/passwords")).verifyPassword);
    }
    // Neither the e-mail nor the office's address was locked by the outage: the right password signs in from there.
    expect(await attempts.locked(email)).toBe(false);
    expect(await authorizeSignIn({ email, password: PASSWORD }, office)).toMatchObject({ id: ownerUserId, email });
  });
});

describe("the client address of a sign-in", () => {
  const request = (headers: Record<string, string | string[]>, remoteAddress?: string) => ({ headers, socket: { remoteAddress } }) as unknown as http.IncomingMessage;

  it("is the socket's, or behind a trusted proxy the X-Forwarded-For entry it appended; what a client sent as the app's own header never passes", () => {
    const forwarded = { "x-forwarded-for": "10.9.9.9, 203.0.113.7, 198.51.100.20" };
    expect(clientAddressOf(request(forwarded, "192.0.2.1"), true)).toBe("198.51.100.20");
    expect(clientAddressOf(request({ "x-forwarded-for": ["10.9.9.9", "2001:db8::5"] }, "192.0.2.1"), true)).toBe("2001:db8::5");
    expect(clientAddressOf(request({}, "192.0.2.1"), true)).toBe("192.0.2.1");
    // Without a trusted proxy X-Forwarded-For is whatever the client wrote: the socket's address counts.
    expect(clientAddressOf(request(forwarded, "192.0.2.1"), false)).toBe("192.0.2.1");
    const forged = request({ [CLIENT_ADDRESS_HEADER]: "203.0.113.250" }, "192.0.2.1");
    stampClientAddress(forged, false);
    expect(forged.headers[CLIENT_ADDRESS_HEADER]).toBe("192.0.2.1");
    const unknown = request({ [CLIENT_ADDRESS_HEADER]: "203.0.113.250" });
    stampClientAddress(unknown, false);
    expect(unknown.headers[CLIENT_ADDRESS_HEADER]).toBeUndefined();
    // next-auth hands authorize the request's headers: the stamped address, or none when it did not come through the server.
    expect(signInAddress({ [CLIENT_ADDRESS_HEADER]: "192.0.2.1" })).toBe("192.0.2.1");
    expect(signInAddress({})).toBeNull();
    expect(signInAddress(undefined)).toBeNull();
  });
});
