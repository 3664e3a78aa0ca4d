import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/v1/health/route";
import { RateLimits, redisClient, setRateLimitsForTests } from "@/lib/api/rate-limit";
import { stopListener } from "@/lib/db/notifications";
import { captureLogsForTests } from "@/lib/log";
import { freePort } from "@/scripts/lib/database";
import { newKey, newTenant } from "../helpers/factory";
import { bearer, call } from "../helpers/http";

// With Redis configured and then stopped, the API keeps answering: the rate limiter's insurance limiter
// (per-process memory counters, same limits) takes over at once, no request waits on Redis, the outage is
// logged once and the recovery once, and the shared Redis counters are used again when Redis is back.
// A real redis-server of its own on a free port is started, killed and started again.

let port: number;
let redis: ChildProcess | undefined;
let client: Redis;
const lines: { msg: string }[] = [];
const prefix = `rl-outage-${randomBytes(4).toString("hex")}`;

function startRedis(): Promise<void> {
  redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  return new Promise((resolve) => setTimeout(resolve, 300));
}
function stopRedis(): Promise<void> {
  const proc = redis!;
  return new Promise((resolve) => {
    proc.once("exit", () => resolve());
    proc.kill("SIGKILL");
  });
}

beforeAll(async () => {
  port = await freePort();
  await startRedis();
  captureLogsForTests((line) => lines.push(JSON.parse(line) as { msg: string }));
  client = redisClient(`redis://127.0.0.1:${port}`);
  await new Promise((resolve) => client.once("ready", resolve));
  setRateLimitsForTests(new RateLimits({ kind: "redis", client }, { sandbox: 100, production: 1000 }, prefix));
});

afterAll(async () => {
  setRateLimitsForTests(undefined);
  client.disconnect();
  if (redis && redis.exitCode === null) await stopRedis();
  await stopListener();
});

describe("Redis stops and starts under the running API", () => {
  it("keeps answering from the per-instance limiter, then goes back to Redis", async () => {
    const tenantId = (await newTenant()).tenant.id;
    const { key } = await newKey(tenantId);
    const health = () => call(GET, { path: "/v1/health", headers: bearer(key, tenantId) });
    const counter = `${prefix}:sandbox:${tenantId}`;

    const first = await health();
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("99");
    expect(await client.get(counter)).toBe("1");

    await stopRedis();
    for (let i = 0; i < 20; i++) {
      const began = performance.now();
      const answer = await health();
      expect(answer.status).toBe(200);
      expect(performance.now() - began).toBeLessThan(1000);
      expect(Number(answer.headers.get("x-ratelimit-remaining"))).toBeLessThan(100);
    }

    await startRedis();
    for (let i = 0; i < 100 && client.status !== "ready"; i++) await new Promise((r) => setTimeout(r, 100));
    expect(client.status).toBe("ready");
    const back = await health();
    expect(back.status).toBe(200);
    // A new Redis (nothing persisted): the shared counter starts again from this request.
    expect(await client.get(counter)).toBe("1");

    const messages = lines.map((l) => l.msg);
    expect(messages.filter((m) => m.startsWith("redis unavailable"))).toHaveLength(1);
    expect(messages.filter((m) => m.startsWith("redis available again"))).toHaveLength(1);
  }, 60_000);
});
