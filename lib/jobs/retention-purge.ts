import { purgeExpiredIdempotencyRecords } from "@/lib/api/idempotency";
import { purgeFinishedDeliveries } from "@/lib/webhooks/retention";
import { runPollLoop } from "./poll-loop";

// Inside `npm run worker`: what is kept only for a while is deleted — idempotency records past their 24 hours
// (lib/api/idempotency.ts) and webhook deliveries finished more than WEBHOOK_RETENTION_DAYS ago
// (lib/webhooks/retention.ts) — straight on while a round fills a batch, else every 10 minutes. `npm run jobs --
// purge-idempotency` and `npm run jobs -- purge-webhook-deliveries` do it by hand.

const BATCH = 1000;

export async function runRetentionPurger(signal: AbortSignal, options: { idleMs?: number } = {}): Promise<void> {
  await runPollLoop(signal, {
    name: "retention purger",
    waiting: "expired idempotency records and old webhook deliveries wait",
    idleMs: options.idleMs ?? 600_000,
    round: async () => {
      const records = await purgeExpiredIdempotencyRecords(BATCH);
      const deliveries = await purgeFinishedDeliveries(BATCH);
      return records === BATCH || deliveries === BATCH;
    },
  });
}
