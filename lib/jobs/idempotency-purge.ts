import { purgeExpiredIdempotencyRecords } from "@/lib/api/idempotency";
import { runPollLoop } from "./poll-loop";

// Inside `npm run worker`: idempotency records past their 24 hours are deleted (lib/api/idempotency.ts) — straight on
// while a round fills its batch, else every 10 minutes. `npm run jobs -- purge-idempotency` does it by hand.

const BATCH = 1000;

export async function runIdempotencyPurger(signal: AbortSignal, options: { idleMs?: number } = {}): Promise<void> {
  await runPollLoop(signal, {
    name: "idempotency purger",
    waiting: "expired idempotency records wait",
    idleMs: options.idleMs ?? 600_000,
    round: async () => (await purgeExpiredIdempotencyRecords(BATCH)) === BATCH,
  });
}
