import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { sendTestEvent } from "@/lib/webhooks/deliveries";
import { dispatchEvents } from "@/lib/webhooks/worker";
import { ROOT } from "@/scripts/lib/database";
import { actor, newTenant } from "../helpers/factory";
import { killHard } from "../helpers/route-server-process";
import { startReceiver } from "../helpers/webhook-receiver";

// `npm run worker` across kill -9: the real worker process is SIGKILLed while its attempts are in flight (the
// receiver holds each request 1.5 s); a second worker takes over once their leases (3 s here) lapse. Nothing is
// lost: every delivery succeeds; the attempts the dead worker had in flight are logged as such; no delivery
// has two successful attempts and no attempt number is used twice (a unique index would refuse it).

const EVENTS = 60;
const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill("SIGKILL")));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startWorker(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "worker.ts")], {
    cwd: ROOT,
    env: { ...process.env, WEBHOOK_LEASE_SECONDS: "3", WEBHOOK_TIMEOUT_MS: "2000", WEBHOOK_WORKER_CONCURRENCY: "20", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(proc);
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("worker started") && resolve());
    proc.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
  });
  return proc;
}

describe("webhook worker across kill -9", () => {
  it("loses nothing: a second worker finishes what the killed one had claimed", async () => {
    const receiver = await startReceiver(() => ({ status: 200, body: "ok", delayMs: 1_500 }));
    try {
      while ((await dispatchEvents()) > 0); // other files' events: not this test's business
      const { tenant } = await newTenant();
      const scope = { tenantId: tenant.id, environment: "sandbox" as const };
      const endpoint = await createEndpoint(scope, actor, { url: receiver.url("/crash"), event_types: ["*"] });
      for (let i = 0; i < EVENTS; i += 1) await sendTestEvent(scope, actor, endpoint.id);

      const first = await startWorker();
      const deadline = Date.now() + 30_000;
      while (receiver.received.length < 10 && Date.now() < deadline) await sleep(20);
      await killHard(first);
      const inFlight = await db().webhookDelivery.count({ where: { endpointId: endpoint.id, status: "pending", lockedUntil: { gt: new Date() } } });
      expect(inFlight).toBeGreaterThan(0);

      receiver.respondWith(() => ({ status: 200, body: "ok" }));
      const second = await startWorker();
      while ((await db().webhookDelivery.count({ where: { endpointId: endpoint.id, status: "succeeded" } })) < EVENTS && Date.now() < deadline + 30_000) await sleep(100);
      await new Promise((resolve) => {
        second.once("exit", resolve);
        second.kill("SIGTERM"); // it finishes its round: no later test file's delivery is claimed by it
      });

      const deliveries = await db().webhookDelivery.findMany({ where: { endpointId: endpoint.id }, include: { attempts: { orderBy: { number: "asc" } } } });
      expect(deliveries).toHaveLength(EVENTS);
      expect(deliveries.every((d) => d.status === "succeeded")).toBe(true);
      for (const d of deliveries) {
        expect(d.attempts.filter((a) => a.statusCode === 200)).toHaveLength(1);
        expect(d.attempts.map((a) => a.number)).toEqual(Array.from({ length: d.attemptCount }, (_, i) => i + 1));
        for (const lost of d.attempts.slice(0, -1)) expect(lost).toMatchObject({ statusCode: null, error: "The worker stopped during this attempt: its outcome is unknown" });
      }
      const retaken = deliveries.filter((d) => d.attemptCount === 2);
      expect(retaken.length).toBe(inFlight);
      // Every event reached the receiver; only the attempts cut by the kill arrived twice (at least once).
      const received = receiver.received.filter((r) => r.path === "/crash").map((r) => r.headers["webhook-id"]);
      expect(new Set(received)).toEqual(new Set(deliveries.map((d) => d.eventId)));
      expect(received.length).toBeLessThanOrEqual(EVENTS + inFlight);
    } finally {
      await receiver.close();
    }
  }, 90_000);
});
