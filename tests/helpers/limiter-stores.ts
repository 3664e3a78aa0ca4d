import { redisClient, type RateLimitStore } from "@/lib/api/rate-limit";

/** The stores a limiter test runs its cases against: in-process memory, and Redis (with the production client's
 *  settings) when REDIS_URL is set. Each `make` gives a fresh store and how to close it. */
export function limiterStores(): [string, () => Promise<{ store: RateLimitStore; close: () => Promise<void> }>][] {
  const stores: [string, () => Promise<{ store: RateLimitStore; close: () => Promise<void> }>][] = [
    ["memory", async () => ({ store: { kind: "memory" }, close: async () => undefined })],
  ];
  const redisUrl = process.env.REDIS_URL;
  if (redisUrl) {
    stores.push([
      "redis",
      async () => {
        const client = redisClient(redisUrl);
        await new Promise((resolve) => client.once("ready", resolve));
        return { store: { kind: "redis", client }, close: async () => void (await client.quit()) };
      },
    ]);
  }
  return stores;
}
