import { beforeEach, describe, expect, it, vi } from "vitest";

// The invalidation listener, played by the test: `epoch` is the listening connection (null: none), as
// lib/db/notifications.ts's listenerEpoch() reports it; `announce` delivers a notification.
const listener = vi.hoisted(() => {
  const handlers: ((key: string) => void)[] = [];
  return {
    epoch: 1 as number | null,
    handlers,
    announce: (key: string) => handlers.forEach((h) => h(key)),
  };
});
vi.mock("@/lib/db/notifications", () => ({
  isListening: () => listener.epoch !== null,
  listenerEpoch: () => listener.epoch,
  onInvalidation: (handler: (key: string) => void) => listener.handlers.push(handler),
  startListener: async () => undefined,
}));

const { cachedLookup, isCached, REVOKED } = await import("@/lib/auth/credential-cache");

// A lookup whose load runs `during` before answering `answer`, counting how often the database was read.
function lookup(key: string, answer: object = { revoked: false }) {
  let loads = 0;
  const run = (during: () => void = () => undefined) =>
    cachedLookup(key, async () => {
      loads += 1;
      during();
      return answer;
    });
  return { run, loads: () => loads };
}

describe("credential cache: what may be cached", () => {
  let n = 0;
  const key = () => `api_key:test-${(n += 1)}`;
  beforeEach(() => {
    listener.epoch = 1;
  });

  it("caches a lookup made while one listener connection listened throughout", async () => {
    const l = lookup(key());
    await l.run();
    await l.run();
    expect(l.loads()).toBe(1);
  });

  it("does not cache a lookup that started while no one listened, even if the listener connected before it ended", async () => {
    listener.epoch = null;
    const l = lookup(key());
    await l.run(() => {
      listener.epoch = 2; // reconnected mid-lookup: what was read may predate a revocation no one announced
    });
    await l.run();
    expect(l.loads()).toBe(2);
    await l.run();
    expect(l.loads()).toBe(2); // the lookup made under the new connection is cached
  });

  it("does not cache a lookup across a reconnect (the connection it started under was lost and replaced)", async () => {
    const l = lookup(key());
    await l.run(() => {
      listener.epoch = 2; // lost and LISTENing again, no notification delivered to this cache in between
    });
    await l.run();
    expect(l.loads()).toBe(2);
  });

  it("does not cache a lookup that raced with an invalidation, and drops the entry on the next one", async () => {
    const k = key();
    const l = lookup(k);
    await l.run(() => listener.announce(k));
    await l.run();
    expect(l.loads()).toBe(2);
    listener.announce("*");
    await l.run();
    expect(l.loads()).toBe(3);
  });

  it("trusts no entry while no one listens", async () => {
    const l = lookup(key());
    await l.run();
    listener.epoch = null;
    await l.run();
    expect(l.loads()).toBe(2);
  });

  it("caches a revoked credential (REVOKED) by the same rules, and isCached does not count it as one found valid", async () => {
    const k = key();
    const revoked = lookup(k, REVOKED);
    expect(await revoked.run()).toBe(REVOKED);
    expect(await revoked.run()).toBe(REVOKED);
    expect(revoked.loads()).toBe(1);
    expect(isCached(k)).toBe(false);
    const valid = key();
    await lookup(valid).run();
    expect(isCached(valid)).toBe(true);

    // Raced by an invalidation, or across a reconnect: not cached either.
    const raced = lookup(key(), REVOKED);
    await raced.run(() => listener.announce("*"));
    await raced.run();
    expect(raced.loads()).toBe(2);
    const reconnected = lookup(key(), REVOKED);
    await reconnected.run(() => {
      listener.epoch = 2;
    });
    await reconnected.run();
    expect(reconnected.loads()).toBe(2);
  });
});
