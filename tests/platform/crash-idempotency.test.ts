import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { freePort } from "@/scripts/lib/database";
import { cpf } from "../customers/fixtures";
import { newKey, newTenant } from "../helpers/factory";
import { killHard, startRouteServer } from "../helpers/route-server-process";
import { PERSONAL } from "../simulations/helpers";

// Exactly once across crashes: the server (the real /v1 handlers in a process of their own) is killed with
// SIGKILL four times while 8 writers create customers and simulations with fresh X-Request-Ids, restarted each
// time; at the end every request id is replayed once its lease has passed. Each effect must exist exactly once
// in SQL, every acknowledged request must replay the id it was acknowledged with, and no replay may meet a 409.

const LEASE_SECONDS = 2;
const ROUNDS = 4;
const WRITERS = 8;
const KILL_AFTER_MS = [1500, 2200, 1200, 2600];

type Sent = { requestId: string; kind: "customer" | "simulation"; body: unknown; ackId?: string };

let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill("SIGKILL");
  await stopListener();
});

async function post(port: number, headers: Record<string, string>, sent: Sent) {
  const response = await fetch(`http://127.0.0.1:${port}/v1/${sent.kind === "customer" ? "customers" : "simulations"}`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", "x-request-id": sent.requestId },
    body: JSON.stringify(sent.body),
  });
  return { status: response.status, body: (await response.json()) as { id?: string; code?: string }, replayed: response.headers.get("idempotent-replayed") === "true" };
}

describe("idempotent writes across kill -9", () => {
  it("applies every request exactly once and replays what was acknowledged", async () => {
    const tenantId = (await newTenant()).tenant.id;
    const { key } = await newKey(tenantId);
    const headers = { authorization: `Bearer ${key}`, "x-tenant-id": tenantId };
    const port = await freePort();
    const sent: Sent[] = [];
    let next = 0;
    const make = (): Sent => {
      const n = next++;
      const kind = n % 2 === 0 ? "customer" : "simulation";
      const body = kind === "customer" ? { document: cpf(500_000 + n), name: `Cliente ${n}` } : PERSONAL;
      const s: Sent = { requestId: randomUUID(), kind, body };
      sent.push(s);
      return s;
    };

    let unacknowledged = 0;
    const unexpected: unknown[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      child = await startRouteServer(port, LEASE_SECONDS);
      let alive = true;
      const writer = async () => {
        while (alive) {
          const s = make();
          try {
            const answer = await post(port, headers, s);
            if (answer.status === 201) s.ackId = answer.body.id;
            else unexpected.push(answer);
          } catch (err) {
            if (alive) unexpected.push(err);
            else unacknowledged += 1; // the connection died with the server: outcome unknown to the client
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, writer);
      await new Promise((r) => setTimeout(r, KILL_AFTER_MS[round]));
      alive = false;
      await killHard(child);
      await Promise.all(writers);
    }

    expect(unexpected).toEqual([]);

    // Restart, let every lease pass, replay every request id with its original body.
    child = await startRouteServer(port, LEASE_SECONDS);
    await new Promise((r) => setTimeout(r, LEASE_SECONDS * 1000 + 500));
    const replays: Awaited<ReturnType<typeof post>>[] = [];
    for (let i = 0; i < sent.length; i += WRITERS) {
      replays.push(...(await Promise.all(sent.slice(i, i + WRITERS).map((s) => post(port, headers, s)))));
    }
    await killHard(child);
    child = undefined;

    expect(replays.filter((r) => r.status !== 201)).toEqual([]); // in particular no 409 once the lease passed
    sent.forEach((s, i) => {
      if (s.ackId) expect(replays[i]!.body.id).toBe(s.ackId);
    });
    const ids = (kind: Sent["kind"]) => sent.flatMap((s, i) => (s.kind === kind ? [replays[i]!.body.id!] : []));
    const customerIds = ids("customer");
    const simulationIds = ids("simulation");
    expect(new Set(customerIds).size).toBe(customerIds.length);
    expect(new Set(simulationIds).size).toBe(simulationIds.length);

    // In SQL: exactly the replayed effects, each once; every key completed.
    const scope = { tenantId, environment: "sandbox" as const };
    const customers = await db().customer.findMany({ where: scope, select: { id: true } });
    const simulations = await db().simulation.findMany({ where: scope, select: { id: true } });
    expect(customers.map((c) => c.id).sort()).toEqual([...customerIds].sort());
    expect(simulations.map((s) => s.id).sort()).toEqual([...simulationIds].sort());
    const records = await db().idempotencyRecord.groupBy({ by: ["state"], where: scope, _count: true });
    expect(records).toEqual([{ state: "completed", _count: sent.length }]);

    const acknowledged = sent.filter((s) => s.ackId).length;
    const firstTime = replays.filter((r) => !r.replayed).length;
    console.log(
      `kill -9 ×${ROUNDS}: ${sent.length} requests, ${acknowledged} acknowledged, ${unacknowledged} cut off by the kill; ` +
        `replays: ${sent.length - firstTime} returned the stored response, ${firstTime} applied the effect for the first time`,
    );
    expect(unacknowledged).toBeGreaterThan(0); // the kills did land mid-write
  }, 180_000);
});
