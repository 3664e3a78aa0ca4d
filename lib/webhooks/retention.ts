import { rootDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";

// Finished deliveries are evidence for a while — what was sent, when, what the receiver answered — then only a copy of
// personal data (a delivery's attempts keep up to 4 KiB of each body sent: a customer's CPF and income, a payment).
// So a delivery that ended (succeeded or failed) more than WEBHOOK_RETENTION_DAYS ago is deleted with its attempts
// (ON DELETE CASCADE). Pending ones never are. The events stay: they are the objects' history (GET /v1/events, the
// panel's contract timeline), and the audit log is kept apart. A deleted endpoint's whole log goes too, in batches, and
// then the endpoint (purgeDeletedEndpoints).

/** Deletes up to `limit` deliveries finished before the retention period; returns how many went. */
export async function purgeFinishedDeliveries(limit = 1000, days = getEnv().WEBHOOK_RETENTION_DAYS): Promise<number> {
  return rootDb().$executeRaw`
    DELETE FROM webhook_deliveries WHERE id IN (
      SELECT id FROM webhook_deliveries
       WHERE status IN ('succeeded', 'failed') AND completed_at < now() - make_interval(days => ${days}::int)
       LIMIT ${limit})`;
}

/**
 * A deleted endpoint's log (lib/webhooks/endpoints.ts deleteEndpoint only marks it): up to `limit` of its deliveries a
 * call, with their attempts, then — once none refers to it — the endpoint row itself. Bounded like the rest of the
 * purge, so a busy endpoint's 90 days of deliveries go over several rounds instead of in one statement past the
 * statement timeout. A delivery whose attempt is in flight (leased) waits for its worker to record it (the next round
 * takes it), and so does its endpoint. Returns how many deliveries and endpoints went.
 */
export async function purgeDeletedEndpoints(limit = 1000): Promise<{ deliveries: number; endpoints: number }> {
  const deliveries = await rootDb().$executeRaw`
    DELETE FROM webhook_deliveries WHERE id IN (
      SELECT d.id FROM webhook_endpoints e
       CROSS JOIN LATERAL (SELECT id FROM webhook_deliveries
                            WHERE endpoint_id = e.id AND (locked_until IS NULL OR locked_until < now())
                            LIMIT ${limit}) d
       WHERE e.deleted_at IS NOT NULL
       LIMIT ${limit})`;
  // Nothing refers to these any more (a delivery a racing dispatch or test event wrote meanwhile would go with its
  // endpoint: ON DELETE CASCADE, a few rows at most).
  const endpoints = await rootDb().$executeRaw`
    DELETE FROM webhook_endpoints WHERE id IN (
      SELECT e.id FROM webhook_endpoints e
       WHERE e.deleted_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id)
       LIMIT ${limit})`;
  return { deliveries, endpoints };
}
