-- The worker claims each endpoint's oldest due deliveries up to its cap of attempts in flight (lib/webhooks/worker.ts
-- claimDeliveries): the pending deliveries of one endpoint in due order, and the leased ones (in flight, or lapsed) per
-- endpoint, each read from a small partial index instead of the whole backlog.
CREATE INDEX "webhook_deliveries_pending_by_endpoint" ON "webhook_deliveries"("endpoint_id", "next_attempt_at", "id") WHERE "status" = 'pending';
CREATE INDEX "webhook_deliveries_leased_by_endpoint" ON "webhook_deliveries"("endpoint_id", "locked_until") WHERE "status" = 'pending' AND "locked_until" IS NOT NULL;
