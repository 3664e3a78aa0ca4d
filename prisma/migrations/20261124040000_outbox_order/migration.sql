-- First attempts go out in the order the events were written: the events of one transaction share created_at
-- (its now()), so the worker orders by (created_at, id) — ids are monotonic within a process — and deliveries
-- made by one fan-out share next_attempt_at, so claims order by (next_attempt_at, id). Each index now covers its order.
DROP INDEX "outbox_events_unpublished";
CREATE INDEX "outbox_events_unpublished" ON "outbox_events"("created_at", "id") WHERE "published_at" IS NULL;
DROP INDEX "webhook_deliveries_due";
CREATE INDEX "webhook_deliveries_due" ON "webhook_deliveries"("next_attempt_at", "id") WHERE "status" = 'pending';
