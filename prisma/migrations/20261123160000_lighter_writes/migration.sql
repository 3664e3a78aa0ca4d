-- Lighter writes on the hottest insert paths (bench/README.md):
-- the outbox's (published_at, created_at) index duplicated the partial index the webhook worker reads
-- (outbox_events_unpublished: created_at WHERE published_at IS NULL), and cost every event insert and publish;
DROP INDEX "outbox_events_published_at_created_at_idx";

-- a simulation's result is only ever read whole: json keeps its text as sent, jsonb parsed and compressed it
-- (~0.3 ms of database CPU per simulation).
ALTER TABLE "simulations" ALTER COLUMN "result" SET DATA TYPE JSON;
