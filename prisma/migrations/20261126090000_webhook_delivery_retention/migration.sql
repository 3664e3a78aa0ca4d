-- The retention purge (lib/webhooks/retention.ts) finds finished deliveries by when they ended without reading the
-- whole table: a partial index on completed_at of the finished ones only.
CREATE INDEX "webhook_deliveries_finished" ON "webhook_deliveries"("completed_at") WHERE "status" IN ('succeeded', 'failed');
