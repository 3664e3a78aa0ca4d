import { purgeExpiredIdempotencyRecords } from "@/lib/api/idempotency";
import { purgeEndedGrants } from "@/lib/auth/token-retention";
import { purgeEndedPanelSessions } from "@/lib/panel/ended-sessions";
import { purgeDeletedEndpoints, purgeFinishedDeliveries } from "@/lib/webhooks/retention";
import { runPollLoop } from "./poll-loop";

// Inside `npm run worker`: what is kept only for a while is deleted — idempotency records past their 24 hours
// (lib/api/idempotency.ts), webhook deliveries finished more than WEBHOOK_RETENTION_DAYS ago and the whole log of
// deleted webhook endpoints, then those endpoints (lib/webhooks/retention.ts), the refresh tokens of OAuth grants
// that ended (lib/auth/token-retention.ts) and the signed-out panel sessions whose lifetime has passed
// (lib/panel/ended-sessions.ts) —
// straight on while a round fills a batch, else every 10 minutes. `npm run jobs -- purge-idempotency`,
// `purge-webhook-deliveries` and `purge-refresh-tokens` do it by hand.

const BATCH = 1000;

export async function runRetentionPurger(signal: AbortSignal, options: { idleMs?: number } = {}): Promise<void> {
  await runPollLoop(signal, {
    name: "retention purger",
    waiting: "expired idempotency records, old webhook deliveries, deleted webhook endpoints, ended grants and signed-out sessions wait",
    idleMs: options.idleMs ?? 600_000,
    round: async () => {
      const records = await purgeExpiredIdempotencyRecords(BATCH);
      const deliveries = await purgeFinishedDeliveries(BATCH);
      const deletedEndpoints = await purgeDeletedEndpoints(BATCH);
      const grants = await purgeEndedGrants(BATCH);
      const sessions = await purgeEndedPanelSessions(BATCH);
      return records === BATCH || deliveries === BATCH || deletedEndpoints.deliveries === BATCH || deletedEndpoints.endpoints === BATCH || grants >= BATCH || sessions === BATCH;
    },
  });
}
