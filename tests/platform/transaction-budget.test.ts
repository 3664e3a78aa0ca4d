import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";

// Every interactive transaction has the request's budget (IDEMPOTENCY_LEASE_SECONDS), not Prisma's default of 5 s: a
// heavy write sent without X-Request-Id (a webhook recovery of 10,000 deliveries, an assignment of 1,000 contracts) ran
// in its service's own transaction and failed with a 503 once the machine was busy.

afterAll(async () => {
  await stopListener();
});

describe("a transaction opened without options", () => {
  it("outlives Prisma's 5-second default", async () => {
    const answer = await db().$transaction(async (tx) => {
      await tx.$queryRaw`SELECT pg_sleep(5.2)::text`;
      return tx.$queryRaw<{ ok: number }[]>`SELECT 1 AS ok`;
    });
    expect(answer).toEqual([{ ok: 1 }]);
  }, 20_000);
});
