-- The headers a handler adds to its answer (Location-style links, Deprecation, Warning) are part of the response an
-- idempotent repeat replays: kept beside the status and body.
ALTER TABLE "idempotency_records" ADD COLUMN "response_headers" JSONB;
