import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { Redis } from "ioredis";
import { redisClient, type RateLimitStore } from "@/lib/api/rate-limit";
import { SIGN_IN_FAILURES_ALLOWED, SignInAttempts } from "@/lib/panel/sign-in-attempts";

// The panel's wrong-password count (lib/panel/sign-in-attempts.ts) in memory and, when REDIS_URL is set, in Redis,
// where every instance shares it; with Redis down, each instance counts in memory instead of failing sign-in.

const redisUrl = process.env.REDIS_URL;
const clients: Redis[] = [];
const connected = async (url: string) => {
  const client = redisClient(url);
  clients.push(client);
  await new Promise((resolve) => client.once("ready", resolve));
  return client;
};
afterAll(async () => {
  for (const client of clients) client.disconnect();
});

const prefix = () => `sign-in-test-${randomBytes(4).toString("hex")}`;
const email = () => `someone-${randomBytes(3).toString("hex")}@example.test`;

const stores: [string, () => Promise<RateLimitStore>][] = [["memory", async () => ({ kind: "memory" })]];
if (redisUrl) stores.push(["redis", async () => ({ kind: "redis", client: await connected(redisUrl) })]);

describe.each(stores)("sign-in attempts (%s store)", (_name, makeStore) => {
  it("locks an e-mail at the limit, only that e-mail, and a success clears it", async () => {
    const attempts = new SignInAttempts(await makeStore(), prefix());
    const [victim, other] = [email(), email()];
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED - 1; i++) await attempts.take(victim);
    expect(await attempts.locked(victim)).toBe(false);
    await attempts.take(victim);
    expect([await attempts.locked(victim), await attempts.locked(other)]).toEqual([true, false]);
    await attempts.succeeded(victim);
    expect(await attempts.locked(victim)).toBe(false);
  });

  it("takes tries atomically: of many taken at once, exactly the allowance passes; a try given back can be taken again", async () => {
    const attempts = new SignInAttempts(await makeStore(), prefix());
    const victim = email();
    const taken = await Promise.all(Array.from({ length: 3 * SIGN_IN_FAILURES_ALLOWED }, () => attempts.take(victim)));
    expect(taken.filter(Boolean)).toHaveLength(SIGN_IN_FAILURES_ALLOWED);
    expect(await attempts.locked(victim)).toBe(true);
    const other = email();
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED; i++) expect(await attempts.take(other)).toBe(true);
    await attempts.giveBack(other);
    expect(await attempts.take(other)).toBe(true);
    expect(await attempts.take(other)).toBe(false);
  });
});

describe.runIf(redisUrl)("sign-in attempts shared through Redis", () => {
  it("counts every instance's wrong passwords together, under a hash of the e-mail", async () => {
    const keyPrefix = prefix();
    const [a, b] = [new SignInAttempts({ kind: "redis", client: await connected(redisUrl!) }, keyPrefix), new SignInAttempts({ kind: "redis", client: await connected(redisUrl!) }, keyPrefix)];
    const victim = email();
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED / 2; i++) await a.take(victim);
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED / 2; i++) await b.take(victim);
    expect([await a.locked(victim), await b.locked(victim)]).toEqual([true, true]);
    const keys = await clients[clients.length - 1]!.keys(`${keyPrefix}*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(victim.split("@")[0]);
    expect(keys[0]).not.toContain("@");
  });
});

describe("sign-in attempts with Redis unreachable", () => {
  it("count in this process's memory instead of failing the sign-in", async () => {
    const client = redisClient("redis://127.0.0.1:1"); // nothing listens there
    clients.push(client);
    const attempts = new SignInAttempts({ kind: "redis", client }, prefix());
    const victim = email();
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED; i++) await attempts.take(victim);
    expect(await attempts.locked(victim)).toBe(true);
    await attempts.succeeded(victim);
    expect(await attempts.locked(victim)).toBe(false);
  });
});
