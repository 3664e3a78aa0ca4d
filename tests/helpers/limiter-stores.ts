import { redisClient, type RateLimitStore } from "@/lib/api/rate-limit";

/** The stores a limiter test runs its cases against: in-process memory, and Redis (with the production client's
 *  settings, but a command timeout of 5 s) when REDIS_URL is set. Each `make` gives a fresh store and how to close it.
 *  A test sending 1,000 requests at once can hold the event loop longer than production's 500 ms: a command timing
 *  out then falls to the per-instance memory limiter, and the exact counts the test asserts would be off. */
export function limiterStores(): [string, () => Promise<{ store: RateLimitStore; close: () => Promise<void> }>][] {
  const stores: [string, () => Promise<{ store: RateLimitStore; close: () => Promise<void> }>][] = [
    ["memory", async () => ({ store: { kind: "memory" }, close: async () => undefined })],
  ];
  const redisUrl = process.env.REDIS_URL;
  if (redisUrl) {
    stores.push([
      "redis",
      async () => {
        const client = redisClient(redisUrl, { commandTimeout: 5000 });
        await new Promise((resolve) => client.once("ready", resolve));
        return { store: { kind: "redis", client }, close: async () => void (await client.quit()) };
      },
    ]);
  }
  return stores;
}
