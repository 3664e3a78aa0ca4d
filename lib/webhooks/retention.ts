import { rootDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";

// Finished deliveries are evidence for a while — what was sent, when, what the receiver answered — then only a copy of
// personal data (a delivery's attempts keep up to 4 KiB of each body sent: a customer's CPF and income, a payment).
// So a delivery that ended (succeeded or failed) more than WEBHOOK_RETENTION_DAYS ago is deleted with its attempts
// (ON DELETE CASCADE). Pending ones never are. The events stay: they are the objects' history (GET /v1/events, the
// panel's contract timeline), and the audit log is kept apart.

/** Deletes up to `limit` deliveries finished before the retention period; returns how many went. */
export async function purgeFinishedDeliveries(limit = 1000, days = getEnv().WEBHOOK_RETENTION_DAYS): Promise<number> {
  return rootDb().$executeRaw`
    DELETE FROM webhook_deliveries WHERE id IN (
      SELECT id FROM webhook_deliveries
       WHERE status IN ('succeeded', 'failed') AND completed_at < now() - make_interval(days => ${days}::int)
       LIMIT ${limit})`;
}
